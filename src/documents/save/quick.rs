//! The quick path: a save worked out before the writer is taken. Everything that
//! costs CPU (the CJK index text, the line counts, the revision's hash and zstd
//! delta) is made from the version read on a reader, on the request's own
//! thread; the write then holds one guarded `UPDATE` and the revision's inserts,
//! in a transaction it may share with other saves. If the document moved on
//! meanwhile (or the user may no longer edit it), nothing is written and the
//! careful path decides what to say.

use super::super::{
    Access, Caller, DocError, DocId, Document, RENDER_VERSION, Valid, access, cjk, now_ms,
    revisions,
};
use super::{OnStale, RenderedPage};
use crate::db::Db;
use crate::db::documents::grouped::{self, QueuedRevision, QueuedVersion};
use crate::db::documents::revisions::prepare_text;

/// Saves `doc` over `base` if that is still the version a reader sees and
/// `actor` may edit it: the saved document, or `None` when the careful path
/// must decide.
pub(super) async fn save(
    db: &Db,
    (id, base): (&DocId, i64),
    doc: &Valid,
    page: &RenderedPage,
    on_stale: OnStale,
    actor: Caller<'_>,
) -> Result<Option<Document>, DocError> {
    let new_text = crate::db::documents::revisions::hash(doc.body());
    let edit = (actor, Access::Edit);
    let (current, stored) = match access::authorize_text(&db.read, id, edit, new_text).await {
        Ok(found) => found,
        Err(DocError::Internal(e)) => return Err(DocError::Internal(e)),
        Err(_) => return Ok(None),
    };
    if current.deleted_at.is_some() || current.version != base {
        return Ok(None);
    }
    let cjk = cjk::index_text(doc.title(), doc.body());
    let (added, removed) = revisions::line_changes(&current.body, doc.body());
    let body = (doc.body(), Some(current.body.as_str()));
    let text = prepare_text(&db.read, current.seq, body, Some(&stored)).await?;
    let version = QueuedVersion {
        id: id.as_str().to_owned(),
        base,
        viewer: access::viewer(actor),
        fields: doc.fields(),
        html: page.packed.clone(),
        render_version: RENDER_VERSION,
        cjk,
        now: now_ms(),
        revision: QueuedRevision {
            text,
            added,
            removed,
            author: actor.person().map(|a| a.name.to_owned()),
        },
        drop_draft_of: actor
            .person()
            .filter(|_| on_stale.drops_draft())
            .map(|a| a.user_id),
    };
    let saved = grouped::write_version(db, version).await?;
    // The statement left out the texts it wrote: they are the caller's.
    Ok(saved.map(|mut saved| {
        saved.body = doc.body().to_owned();
        saved.html.clone_from(&page.html);
        saved
    }))
}
