//! The careful path: the save read again inside a write transaction of its own,
//! after the quick path could not write it. It says why nothing can be written
//! (the document is gone, or the actor may not edit it), or writes the user's
//! text over `base`, or, when someone saved since, does what `OnStale` says.

use super::super::{
    Access, Caller, DocError, DocId, Document, RENDER_VERSION, Valid, access, cjk, drafts, now_ms,
    revisions,
};
use super::{OnStale, RenderedPage, Saved};
use crate::db::documents::{self as store, PackedHtml};
use crate::db::{Db, WriteTx};

/// Saves `doc` over `base` in a transaction that holds the writer alone.
pub(super) async fn save(
    db: &Db,
    (id, base): (&DocId, i64),
    doc: &Valid,
    page: &RenderedPage,
    on_stale: OnStale,
    actor: Caller<'_>,
) -> Result<Saved, DocError> {
    let mut tx = db.begin_write().await?;
    let current = access::authorize(&*tx, id, actor, Access::Edit).await?;
    if current.deleted_at.is_some() {
        return Err(DocError::NotFound);
    }
    let saved = if current.version == base {
        Saved {
            doc: write_next_version(&mut tx, &current, doc, &page.packed, actor).await?,
            merged_with: None,
        }
    } else {
        let merged = on_stale.onto(&mut tx, &current, base, doc).await?;
        let merged_with = Some(current.version);
        if merged.changes_nothing_in(&current) {
            // Everything the user changed was already there: nothing new to record.
            Saved {
                doc: current,
                merged_with,
            }
        } else {
            let page = RenderedPage::render(merged.body(), Some(&current.id))?;
            Saved {
                doc: write_next_version(&mut tx, &current, &merged, &page.packed, actor).await?,
                merged_with,
            }
        }
    };
    if let Some(actor) = actor.person().filter(|_| on_stale.drops_draft()) {
        drafts::remove(&tx, saved.doc.seq, actor.user_id).await?;
    }
    tx.commit().await?;
    Ok(saved)
}

/// Writes `doc` as the next version of `current` and records the revision, in
/// the caller's transaction (a save, a revision restored).
pub(in crate::documents) async fn write_next_version(
    tx: &mut WriteTx,
    current: &Document,
    doc: &Valid,
    html: &PackedHtml,
    actor: Caller<'_>,
) -> Result<Document, DocError> {
    let cjk = cjk::index_text(doc.title(), doc.body());
    let next = store::NextVersion {
        fields: &doc.fields(),
        html,
        render_version: RENDER_VERSION,
        cjk: &cjk,
        now: now_ms(),
    };
    let saved = store::update(tx, current, next).await?;
    revisions::record(
        tx,
        saved.seq,
        saved.version,
        &saved.title,
        &saved.body,
        Some(&current.body),
        actor.person().map(|a| a.name),
        saved.updated_at,
    )
    .await?;
    Ok(saved)
}
