//! Who is editing a document now: each open editor says so every few seconds
//! (htmx polling), and learns who else has it open and whether someone saved
//! since the version it started from. Nothing of this is needed to save.

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::notices::presence as stored;
use crate::documents::access::{Actor, authorize};
use crate::documents::{Access, DocError, DocId};

/// An editor counts as open this long after it last said so.
const FRESH_MS: i64 = 30_000;

/// An open editor's "still here" is written at most this often: each write is
/// a commit, which empties the page cache.
const WRITE_EVERY_MS: i64 = 15_000;

/// What an editor (or a reader) of a document is told.
#[derive(Debug, Clone, Default)]
pub struct Editing {
    /// The others who have it open in an editor, by name.
    pub others: Vec<String>,
    /// Someone saved since the editor's base version: the version now, and who.
    pub saved_since: Option<(i64, Option<String>)>,
}

/// Who else has document `id` open in an editor, as the person sees it; with
/// `base` (the version their editor started from) they are editing it, which
/// is noted, and they are told whether someone saved since.
pub async fn editing(
    db: &Db,
    actor: Actor<'_>,
    id: &DocId,
    base: Option<i64>,
) -> Result<Editing, DocError> {
    let doc = authorize(&db.read, id, actor.into(), Access::Read).await?;
    let now = now_ms();
    if base.is_some() && doc.access.may_edit() {
        let last = stored::last_seen(&db.read, doc.seq, actor.user_id).await?;
        if last.is_none_or(|t| now - t >= WRITE_EVERY_MS) {
            let tx = db.begin_write().await?;
            stored::seen(&*tx, doc.seq, actor.user_id, now).await?;
            tx.commit().await?;
        }
    }
    let others = stored::others(&db.read, doc.seq, actor.user_id, now - FRESH_MS).await?;
    let saved_since = match base {
        Some(base) if doc.version > base => {
            let by = crate::db::documents::revisions::find(&db.read, doc.seq, doc.version)
                .await?
                .and_then(|r| r.author);
            Some((doc.version, by))
        }
        _ => None,
    };
    Ok(Editing {
        others,
        saved_since,
    })
}
