//! The page for a save that could not go through as it was: the merge view when
//! both sides changed the same passages, or both texts side by side when there is
//! no base to merge against. The user's text is always on the page.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use super::doc_view::DocView;
use super::editor::EditForm;
use super::respond;
use crate::documents::{Chunk, Conflicted, Document};

/// One passage both sides changed.
pub struct Region {
    pub mine: String,
    pub current: String,
}

pub struct MergeView {
    pub base: i64,
    pub regions: Vec<Region>,
    /// Their title when both sides changed it differently.
    pub their_title: Option<String>,
    /// The editor for settling it: the merged text with both sides marked.
    pub resolve: EditForm,
}

#[derive(Template)]
#[template(path = "documents/conflict_partial.html")]
pub struct ConflictPartial<'a> {
    pub mine: &'a EditForm,
    pub current: DocView,
    pub current_body: &'a str,
    pub merge: Option<MergeView>,
    /// Who saved the version the user's save met ("Someone" when not known).
    pub saved_by: &'a str,
}

pub fn page(mine: &EditForm, current: &Document, merge: Option<&Conflicted>) -> HttpResponse {
    // Every save from this page is based on the version the user has now seen.
    let mine = mine.clone().based_on(current.version);
    let merge = merge.map(|c| MergeView {
        base: c.base,
        regions: c
            .merge
            .chunks
            .iter()
            .filter_map(|chunk| match chunk {
                Chunk::Conflict { mine, current, .. } => Some(Region {
                    mine: mine.clone(),
                    current: current.clone(),
                }),
                Chunk::Clean(_) => None,
            })
            .collect(),
        their_title: c.title.is_none().then(|| current.title.clone()),
        resolve: mine.clone().with_text(
            c.title.clone().unwrap_or_else(|| mine.title.clone()),
            c.merge
                .text_with_markers(&format!("version {}", current.version)),
        ),
    });
    respond::fragment(
        StatusCode::CONFLICT,
        "Edit conflict",
        &ConflictPartial {
            mine: &mine,
            current: DocView::from(current),
            current_body: &current.body,
            merge,
            saved_by: current.saved_by.as_deref().unwrap_or("Someone"),
        },
    )
}
