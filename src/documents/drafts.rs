//! Drafts: the editor's unsaved text, kept per user and document so a closed tab,
//! an ended session or a restart loses nothing. Only someone who may edit a
//! document keeps a draft of it, and nobody sees another user's draft.

use super::{Access, Actor, DocError, DocId, Document, MAX_TITLE_CHARS, access, now_ms};
use crate::db::Db;

use crate::db::documents::drafts as stored;
pub use crate::db::documents::drafts::Draft;

/// True when the draft holds nothing the document doesn't already say.
pub fn repeats(draft: &Draft, doc: &Document) -> bool {
    draft.title.trim() == doc.title && draft.body == doc.body
}

/// Keeps the user's unsaved text. Half-typed titles are fine here (even empty);
/// only the size cap and the title limit apply, checked before any work.
pub async fn put(
    db: &Db,
    id: &DocId,
    actor: Actor<'_>,
    title: &str,
    body: &str,
    base_version: i64,
    cap: usize,
) -> Result<Draft, DocError> {
    let size = super::stored_len(body);
    if size > cap {
        return Err(DocError::TooLarge { size, cap });
    }
    let chars = title.chars().count();
    if chars > MAX_TITLE_CHARS {
        return Err(DocError::TitleTooLong { chars });
    }
    let tx = db.begin_content_write().await?;
    let doc = access::authorize(&*tx, id, actor.into(), Access::Edit).await?;
    if doc.deleted_at.is_some() {
        return Err(DocError::NotFound);
    }
    let draft = Draft {
        title: title.to_owned(),
        body: super::as_stored(body).into_owned(),
        base_version: base_version.clamp(1, doc.version),
        updated_at: now_ms(),
    };
    // The document was read in this write, so a refused key is the account,
    // deleted since the request was let in.
    let draft = stored::put(&*tx, doc.seq, actor.user_id, &draft)
        .await
        .map_err(|e| {
            if crate::db::is_foreign_key_violation(&e) {
                DocError::AccountGone
            } else {
                e.into()
            }
        })?;
    tx.commit().await?;
    Ok(draft)
}

/// The user's own draft of a document, if any.
pub async fn find(
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<Option<Draft>, crate::db::Error> {
    stored::find(ex, doc_seq, user_id).await
}

/// The user's draft worth offering back: one that says something the document
/// doesn't. A draft that only repeats the saved text is dropped.
pub async fn offer(db: &Db, doc: &Document, actor: Actor<'_>) -> Result<Option<Draft>, DocError> {
    let Some(draft) = find(&db.read, doc.seq, actor.user_id).await? else {
        return Ok(None);
    };
    if repeats(&draft, doc) {
        let tx = db.begin_content_write().await?;
        remove(&tx, doc.seq, actor.user_id).await?;
        tx.commit().await?;
        return Ok(None);
    }
    Ok(Some(draft))
}

/// Throws the user's draft away (the "Discard" button).
pub async fn discard(db: &Db, id: &DocId, actor: Actor<'_>) -> Result<(), DocError> {
    let tx = db.begin_content_write().await?;
    let doc = access::authorize(&*tx, id, actor.into(), Access::Read).await?;
    remove(&tx, doc.seq, actor.user_id).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes a user's draft inside the caller's transaction (a save does this).
pub(super) async fn remove(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<(), crate::db::Error> {
    stored::remove(conn, doc_seq, user_id).await
}
