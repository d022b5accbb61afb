//! How a list of documents is ordered and narrowed: by last change, creation or
//! title, either way round, and all the reader may read, their own, or others'
//! shared with them. Plain values, checked by type: the SQL for each is fixed in
//! `store`.

use crate::query_param::encoded;
use serde::Deserialize;

/// What the list is sorted by.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// Last change (the default).
    #[default]
    Updated,
    Created,
    /// Title, case aside.
    Title,
}

/// Which way round; each sort has its natural way (newest first, A to Z).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    Asc,
    Desc,
}

/// Whose documents: the reader's own, or others' the reader may read.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    Me,
    Shared,
}

/// Which space a list is narrowed to: the reader's personal space, or a team space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InSpace {
    Personal,
    Id(i64),
}

impl InSpace {
    /// From a query parameter: `personal` or a space's number.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim() {
            "personal" => Some(Self::Personal),
            n => n.parse().ok().filter(|n| *n > 0).map(Self::Id),
        }
    }

    /// As statements bind it: the space's id, 0 for the reader's personal space.
    pub fn bound(self) -> i64 {
        match self {
            Self::Personal => 0,
            Self::Id(n) => n,
        }
    }

    /// As a query parameter says it.
    pub fn param(self) -> String {
        match self {
            Self::Personal => "personal".to_owned(),
            Self::Id(n) => n.to_string(),
        }
    }

    /// A `WHERE` condition on documents `d`, with the viewer's id as `viewer`.
    pub fn condition(self, viewer: &str) -> String {
        match self {
            Self::Personal => format!("d.space_id IS NULL AND d.owner_id = {viewer}"),
            Self::Id(n) => format!("d.space_id = {n}"),
        }
    }
}

/// A list's sort, direction and filters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub sort: Sort,
    pub order: Option<Order>,
    pub owner: Option<Owner>,
    /// Documents in this folder and the folders under it (a tidied path).
    pub folder: Option<String>,
    /// Documents with this tag (as quire keeps tags: lower case).
    pub tag: Option<String>,
    /// Documents in this space.
    pub space: Option<InSpace>,
}

impl Listing {
    /// True when the list runs from the largest value down.
    pub fn descending(&self) -> bool {
        match self.order {
            Some(order) => order == Order::Desc,
            None => self.sort != Sort::Title,
        }
    }

    /// What narrows the listing (owner, folder, tag), not how it is ordered:
    /// two listings with the same filters hold the same documents.
    pub fn filters(&self) -> String {
        Self {
            sort: Sort::Updated,
            order: None,
            ..self.clone()
        }
        .query()
    }

    /// The listing as query parameters, each followed by `&` (empty for the
    /// default), so a page link keeps it: `sort=title&order=desc&`.
    pub fn query(&self) -> String {
        let mut q = String::new();
        if self.sort != Sort::Updated {
            q.push_str(&format!("sort={}&", self.sort.as_str()));
        }
        if let Some(order) = self.order {
            q.push_str(&format!("order={}&", order.as_str()));
        }
        if let Some(owner) = self.owner {
            q.push_str(&format!("owner={}&", owner.as_str()));
        }
        if let Some(space) = self.space {
            q.push_str(&format!("space={}&", space.param()));
        }
        if let Some(folder) = &self.folder {
            q.push_str(&format!("folder={}&", encoded(folder)));
        }
        if let Some(tag) = &self.tag {
            q.push_str(&format!("tag={}&", encoded(tag)));
        }
        q
    }
}

impl Sort {
    /// As the query parameter says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Updated => "updated",
            Self::Created => "created",
            Self::Title => "title",
        }
    }
}

impl Order {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Asc => "asc",
            Self::Desc => "desc",
        }
    }
}

impl Owner {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Me => "me",
            Self::Shared => "shared",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sort_runs_its_natural_way_unless_told_and_links_keep_what_was_chosen() {
        assert!(Listing::default().descending());
        let by_title = Listing {
            sort: Sort::Title,
            ..Listing::default()
        };
        assert!(!by_title.descending());
        let reversed = Listing {
            order: Some(Order::Desc),
            owner: Some(Owner::Shared),
            ..by_title
        };
        assert!(reversed.descending());
        assert_eq!(reversed.query(), "sort=title&order=desc&owner=shared&");
        let narrowed = Listing {
            folder: Some("A b/c&d".into()),
            tag: Some("été".into()),
            ..Listing::default()
        };
        assert_eq!(narrowed.query(), "folder=A%20b%2Fc%26d&tag=%C3%A9t%C3%A9&");
        assert_eq!(Listing::default().query(), "");
    }
}
