//! What most handlers take from a request: the page asked for, a document id
//! from the path, and the signed-in user as the actor of a change.

use serde::{Deserialize, Deserializer};

use super::middleware::session::CurrentUser;
use crate::documents::{Actor, Caller, DocId, InSpace, Listing, Order, Owner, Sort, place};
use crate::web::error::AppError;

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<i64>,
}

impl PageQuery {
    pub fn page(self) -> i64 {
        self.page.unwrap_or(1).max(1)
    }
}

/// The document list's query: which page, sorted how, whose documents. An
/// empty value is the default (the list's form sends `owner=` for "everyone's").
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Which page of 50, from 1 (left out, or lower, it is 1).
    page: Option<i64>,
    /// What the list is sorted by: `updated` (left out), `created` or `title`.
    #[serde(default, deserialize_with = "empty_as_none")]
    #[param(inline)]
    sort: Option<Sort>,
    /// `asc` or `desc`; left out: newest first, titles A to Z.
    #[serde(default, deserialize_with = "empty_as_none")]
    #[param(inline)]
    order: Option<Order>,
    /// `me`: the reader's own; `shared`: others' the reader may read; left
    /// out: both.
    #[serde(default, deserialize_with = "empty_as_none")]
    #[param(inline)]
    owner: Option<Owner>,
    /// Only documents in this folder (a path such as `Projects/Garden`) and
    /// the folders under it.
    #[serde(default, deserialize_with = "empty_as_none")]
    folder: Option<String>,
    /// Only documents with this tag (case aside).
    #[serde(default, deserialize_with = "empty_as_none")]
    tag: Option<String>,
    /// Only documents in this space: its number (`GET /api/v1/spaces`), or
    /// `personal` for the reader's personal space.
    #[serde(default, deserialize_with = "empty_as_none")]
    space: Option<String>,
}

impl ListQuery {
    pub fn page(&self) -> i64 {
        self.page.unwrap_or(1).max(1)
    }

    /// The listing asked for, or why a folder or tag cannot be one.
    pub fn listing(&self) -> Result<Listing, String> {
        let folder = match self.folder.as_deref().map(place::folder_path) {
            Some(Ok(path)) => Some(path).filter(|p| !p.is_empty()),
            Some(Err(e)) => return Err(e.to_string()),
            None => None,
        };
        let tag = match self.tag.as_deref().map(place::tag_name) {
            Some(Ok(tag)) => tag,
            Some(Err(e)) => return Err(e.to_string()),
            None => None,
        };
        let space = match self.space.as_deref() {
            Some(s) => Some(
                InSpace::parse(s)
                    .ok_or_else(|| format!("There is no space {s:?}: name one by its number."))?,
            ),
            None => None,
        };
        Ok(Listing {
            sort: self.sort.unwrap_or_default(),
            order: self.order,
            owner: self.owner,
            folder,
            tag,
            space,
        })
    }
}

fn empty_as_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    use serde::de::IntoDeserializer;
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) => T::deserialize(s.into_deserializer()).map(Some),
    }
}

/// The signed-in person as the domain's caller (the only kind a handler makes).
pub fn caller(user: &CurrentUser) -> Caller<'_> {
    Caller::Person(actor(user))
}

pub fn actor(user: &CurrentUser) -> Actor<'_> {
    Actor {
        user_id: user.0.id,
        name: &user.0.username,
    }
}

pub fn parse_id(raw: &str) -> Result<DocId, AppError> {
    DocId::parse(raw).ok_or(AppError::NotFound)
}
