//! The document list's page: its rows (`DocRow`, which the trash shows too), the
//! sort and filter form, the count and numbered page links that keep the sort.

use askama::Template;

use super::doc_view::sharing_note;
use super::folder_tree::{self, Step};
use super::when::{fmt_time, iso_time};
use crate::documents::{self, Listing, Summary};
pub use crate::query_param::encoded;

/// A document as a list (the document list, the trash) shows it in a row.
pub struct DocRow {
    pub id: String,
    pub title: String,
    pub when: String,
    pub when_iso: String,
    pub size: String,
    /// Whose it is, when not the viewer's.
    pub owner: Option<String>,
    /// Who else sees it, on the viewer's own documents.
    pub sharing: Option<String>,
    /// Its folder (empty for the root) and tags, where the listing read them.
    pub folder: String,
    pub tags: Vec<String>,
    /// The space it is in, where the listing read it ("Personal": the viewer's own).
    pub space: Option<String>,
}

impl DocRow {
    /// A row as `viewer` sees it; `names` are every space's (id, name), the
    /// list reads none.
    pub fn seen_by(s: &Summary, viewer: i64, names: &[(i64, String)]) -> Self {
        let mine = s.owner_id.is_none_or(|o| o == viewer);
        let space_name = s.space_id.and_then(|id| {
            names
                .iter()
                .find(|(n, _)| *n == id)
                .map(|(_, name)| name.clone())
        });
        Self {
            owner: if mine { None } else { s.owner_name.clone() },
            sharing: if mine {
                sharing_note(&s.visibility, s.shared_with, s.public_token.is_some())
            } else {
                None
            },
            // A space made since the names were read is left unnamed, never
            // called personal.
            space: match (s.space_id, space_name, mine) {
                (Some(_), name, _) => name,
                (None, _, true) => Some("Personal".to_owned()),
                (None, _, false) => None,
            },
            ..Self::from(s)
        }
    }
}

impl From<&Summary> for DocRow {
    fn from(s: &Summary) -> Self {
        let at = s.deleted_at.unwrap_or(s.updated_at);
        Self {
            id: s.id.clone(),
            title: s.title.clone(),
            when: fmt_time(at),
            when_iso: iso_time(at),
            size: documents::human_size(s.size.max(0) as usize),
            owner: None,
            sharing: None,
            folder: s.folder.clone(),
            tags: s.tag_list().into_iter().map(str::to_owned).collect(),
            space: None,
        }
    }
}

#[derive(Template)]
#[template(path = "documents/list_partial.html")]
pub struct ListPartial {
    pub rows: Vec<DocRow>,
    pub page: i64,
    pub more: bool,
    pub total: i64,
    /// The page numbers to link to; `None` stands for the ones left out.
    pub numbers: Vec<Option<i64>>,
    /// The sort and filter as query parameters, for every link (`sort=title&`).
    pub keep: String,
    pub sort: &'static str,
    pub order: &'static str,
    pub owner: &'static str,
    /// The folder and tag the list is narrowed to; empty for none.
    pub folder: String,
    pub tag: String,
    /// The sort and owner filter alone, for the folder and tag links (which
    /// set those two afresh).
    pub keep_sort: String,
    /// The folder tree, drawn step by step.
    pub tree: Vec<Step>,
    /// The tags of what the reader may read, most used first, with counts.
    pub tags: Vec<(String, i64)>,
    /// The space the list is narrowed to (a parameter: `personal` or its
    /// number; empty for all) and its name, and the spaces to choose from.
    pub space: String,
    pub space_name: String,
    pub spaces: Vec<(String, String)>,
}

/// The folders and tags the list page shows beside the documents.
pub struct Places {
    pub folders: Vec<(String, i64)>,
    pub tags: Vec<(String, i64)>,
    /// The spaces the reader may read in: (id, name).
    pub spaces: Vec<(i64, String)>,
}

impl ListPartial {
    pub fn new(
        rows: Vec<DocRow>,
        page: i64,
        total: i64,
        listing: &Listing,
        places: Places,
    ) -> Self {
        let last = (total.max(1) - 1) / crate::documents::PAGE_SIZE + 1;
        let sort_only = Listing {
            folder: None,
            tag: None,
            ..listing.clone()
        };
        Self {
            rows,
            page,
            more: crate::documents::more_after(page, total),
            total,
            numbers: page_numbers(page, last),
            keep: listing.query(),
            sort: listing.sort.as_str(),
            order: listing.order.map_or("", |o| o.as_str()),
            owner: listing.owner.map_or("", |o| o.as_str()),
            folder: listing.folder.clone().unwrap_or_default(),
            tag: listing.tag.clone().unwrap_or_default(),
            keep_sort: sort_only.query(),
            tree: folder_tree::steps(&places.folders, listing.folder.as_deref()),
            tags: places.tags,
            space: listing.space.map(|s| s.param()).unwrap_or_default(),
            space_name: match listing.space {
                Some(crate::documents::InSpace::Personal) => "Personal".to_owned(),
                Some(crate::documents::InSpace::Id(n)) => places
                    .spaces
                    .iter()
                    .find(|(id, _)| *id == n)
                    .map(|(_, name)| name.clone())
                    .unwrap_or_default(),
                None => String::new(),
            },
            spaces: space_choices(places.spaces),
        }
    }

    /// The query of a link to `folder`, keeping the sort and tag.
    pub fn in_folder(&self, folder: &str) -> String {
        let mut q = self.keep_sort.clone();
        q.push_str(&format!("folder={}&", encoded(folder)));
        if !self.tag.is_empty() {
            q.push_str(&format!("tag={}&", encoded(&self.tag)));
        }
        q
    }

    /// The query of a link to `tag`, keeping the sort and folder.
    pub fn with_tag(&self, tag: &str) -> String {
        let mut q = self.keep_sort.clone();
        if !self.folder.is_empty() {
            q.push_str(&format!("folder={}&", encoded(&self.folder)));
        }
        q.push_str(&format!("tag={}&", encoded(tag)));
        q
    }
}

/// The spaces a list or search may be narrowed to, as (parameter, name):
/// the reader's personal space, then `names` (id, name).
pub fn space_choices(names: Vec<(i64, String)>) -> Vec<(String, String)> {
    std::iter::once(("personal".to_owned(), "Personal".to_owned()))
        .chain(names.into_iter().map(|(id, name)| (id.to_string(), name)))
        .collect()
}

/// Links to the first and last pages and the two either side of `page`, with
/// `None` where numbers are left out: 1 … 4 5 [6] 7 8 … 20.
pub fn page_numbers(page: i64, last: i64) -> Vec<Option<i64>> {
    if last <= 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (from, to) = (
        page.saturating_sub(2).max(2),
        page.saturating_add(2).min(last - 1),
    );
    out.push(Some(1));
    if from > 2 {
        out.push(None);
    }
    out.extend((from..=to).map(Some));
    if to < last - 1 {
        out.push(None);
    }
    out.push(Some(last));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn page_numbers_show_both_ends_and_two_either_side_with_gaps_between() {
        let shown = |page, last| super::page_numbers(page, last);
        assert!(shown(1, 1).is_empty());
        assert_eq!(shown(1, 3), [Some(1), Some(2), Some(3)]);
        assert_eq!(
            shown(6, 20),
            [
                Some(1),
                None,
                Some(4),
                Some(5),
                Some(6),
                Some(7),
                Some(8),
                None,
                Some(20)
            ]
        );
        assert_eq!(shown(i64::MAX - 1, 3), [Some(1), None, Some(3)]);
    }
}
