//! Saving a document: one operation for the editor, the API and every page that
//! changes a document. The text is rendered once; the quick path then writes it
//! with its CPU work done before the writer is taken. When the document moved
//! on since the user's base version (or the quick path cannot write for another
//! reason), the careful path reads it again inside a write transaction, says
//! why nothing can be written, or does what `OnStale` says with a stale save.

mod careful;
mod quick;
mod stale;

pub(super) use careful::write_next_version;
pub use stale::{Conflicted, OnStale};

use super::render::RenderedPage;
use super::{Caller, DocError, DocId, Document, Valid};
use crate::db::Db;

/// What a save did.
#[derive(Debug)]
pub struct Saved {
    pub doc: Document,
    /// Set when someone else saved after the user's base version and their changes
    /// were merged with the user's: the version merged with.
    pub merged_with: Option<i64>,
}

/// Saves `doc` as the next version of document `id`, based on version `base`.
/// When someone saved since `base`, `on_stale` says whether to merge or to
/// refuse; nothing is written when the save is refused, conflicts, or the
/// document is gone or no longer editable by `actor`.
pub async fn save(
    db: &Db,
    id: &DocId,
    base: i64,
    doc: Valid,
    on_stale: OnStale,
    actor: Caller<'_>,
) -> Result<Saved, DocError> {
    let page = RenderedPage::render(doc.body(), Some(id.as_str()))?;
    if let Some(saved) = quick::save(db, (id, base), &doc, &page, on_stale, actor).await? {
        return Ok(Saved {
            doc: saved,
            merged_with: None,
        });
    }
    careful::save(db, (id, base), &doc, &page, on_stale, actor).await
}

/// The user's text `mine`, based on version `base`, with what others saved
/// since merged in, without saving anything (the editor's "merge their
/// changes into yours"): the merged text and the version it is now based on.
/// Overlapping changes are `DocError::Conflict`, as a save would meet them.
pub async fn catch_up(
    db: &Db,
    id: &DocId,
    base: i64,
    mine: Valid,
    cap: usize,
    actor: Caller<'_>,
) -> Result<(Valid, i64), DocError> {
    let current = super::access::authorize(&db.read, id, actor, super::Access::Edit).await?;
    if current.version == base {
        return Ok((mine, base));
    }
    let merged = stale::merge_onto(&db.read, &current, base, &mine, cap).await?;
    Ok((merged, current.version))
}
