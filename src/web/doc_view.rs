//! A document as its page shows it (`DocView`), the page's partial, and the few
//! words that say who besides the owner sees it.

use askama::Template;

use super::counted::counted;
use super::when::{fmt_time, iso_time};
use crate::documents::{self, Document};

/// A document as its page shows it to one reader.
#[derive(Clone)]
pub struct DocView {
    pub id: String,
    /// Shown through a public link: no actions.
    pub public: bool,
    pub can_edit: bool,
    pub is_owner: bool,
    pub title: String,
    pub html: String,
    pub version: i64,
    pub updated: String,
    pub updated_iso: String,
    pub size: String,
    /// Whose it is, shown to everyone but the owner.
    pub owner: Option<String>,
    /// Who else sees it, shown to the owner ("shared with 2 people").
    pub sharing: Option<String>,
    /// Its folder from the root down: (name, path) each.
    pub crumbs: Vec<(String, String)>,
    pub tags: Vec<String>,
    /// The documents the reader may read that link to this one: (id, title).
    pub linked_from: Vec<(String, String)>,
    /// Where it is and who reads it there: ("Engineering · 14 people", its list's
    /// query), or the owner's personal space.
    pub space: (String, String),
    /// Its discussion, on its own page (not through a public link).
    pub talk: Option<super::talk_view::TalkView>,
    /// Open suggested edits the reader may see: (id, author, when).
    pub suggestions: Vec<(i64, String, String)>,
}

impl DocView {
    /// A value as a link's query parameter carries it.
    pub fn encoded(&self, value: &str) -> String {
        crate::query_param::encoded(value)
    }
}

/// Who besides the owner sees a document, in a few words; `None` when nobody does.
pub fn sharing_note(visibility: &str, shared_with: i64, public_link: bool) -> Option<String> {
    let mut parts = Vec::new();
    match visibility {
        "read" => parts.push("everyone can read".to_owned()),
        "edit" => parts.push("everyone can edit".to_owned()),
        _ => {}
    }
    if shared_with > 0 {
        parts.push(format!(
            "shared with {}",
            counted(shared_with.max(0) as u64, "person", "people")
        ));
    }
    if public_link {
        parts.push("public link on".to_owned());
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

impl From<&Document> for DocView {
    fn from(d: &Document) -> Self {
        let is_owner = d.access.may_own();
        Self {
            id: d.id.clone(),
            public: false,
            can_edit: d.access.may_edit(),
            is_owner,
            owner: if is_owner { None } else { d.owner_name.clone() },
            sharing: if is_owner {
                sharing_note(&d.visibility, d.shared_with, d.public_token.is_some())
            } else {
                None
            },
            title: d.title.clone(),
            html: d.html.clone(),
            version: d.version,
            updated: fmt_time(d.updated_at),
            updated_iso: iso_time(d.updated_at),
            size: documents::human_size(d.body.len()),
            crumbs: documents::place::breadcrumbs(&d.folder),
            tags: d.tags.clone(),
            linked_from: Vec::new(),
            space: match (&d.space_name, d.space_id) {
                (Some(name), Some(id)) => (
                    format!(
                        "{name} · {}",
                        counted(d.space_people.max(0) as u64, "person", "people")
                    ),
                    format!("space={id}"),
                ),
                _ if is_owner => ("Personal".to_owned(), "space=personal".to_owned()),
                _ => (
                    format!(
                        "{}'s personal space",
                        d.owner_name.as_deref().unwrap_or("someone")
                    ),
                    "owner=shared".to_owned(),
                ),
            },
            talk: None,
            suggestions: Vec::new(),
        }
    }
}

#[derive(Template)]
#[template(path = "documents/show_partial.html")]
pub struct ShowPartial {
    pub doc: DocView,
}
