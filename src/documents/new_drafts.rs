//! A new document's drafts: what the editor of a document not yet saved keeps by
//! autosave, so closing the tab before the first save loses nothing either. Each
//! editor page has its own key (two new documents in two tabs are two drafts);
//! only their writer ever sees them, and creating the document removes its draft.

use super::{Actor, DocError, MAX_TITLE_CHARS, now_ms};
use crate::db::Db;

use crate::db::documents::new_drafts as stored;
pub use crate::db::documents::new_drafts::NewDraft;

/// How many of a person's new drafts are offered back at most.
pub const OFFERED: i64 = 20;

/// A key for a new editor page.
pub fn fresh_key() -> String {
    crate::random::random_token()[..32].to_owned()
}

/// A key as sent back by a form: 16 to 64 letters, digits, `-` or `_`; anything
/// else is no key at all.
pub fn key(sent: Option<&str>) -> Option<String> {
    let k = sent?.trim();
    let fits = (16..=64).contains(&k.len())
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    fits.then(|| k.to_owned())
}

/// What the editor of a new document sends to be kept.
pub struct Typed<'a> {
    pub key: &'a str,
    pub title: &'a str,
    pub body: &'a str,
    pub folder: &'a str,
    pub tags: &'a str,
}

/// Keeps the writer's text under its key. Anything half typed is kept as it is
/// (an empty title, a folder not valid yet); only the size cap and the field
/// limits apply, checked before any work.
pub async fn put(
    db: &Db,
    actor: Actor<'_>,
    typed: Typed<'_>,
    cap: usize,
) -> Result<NewDraft, DocError> {
    let size = super::stored_len(typed.body);
    if size > cap {
        return Err(DocError::TooLarge { size, cap });
    }
    let chars = typed.title.chars().count();
    if chars > MAX_TITLE_CHARS {
        return Err(DocError::TitleTooLong { chars });
    }
    if typed.folder.chars().count() > 1000 || typed.tags.chars().count() > 4000 {
        return Err(DocError::Invalid(
            "The folder or the tags are far too long to keep.".into(),
        ));
    }
    let key = key(Some(typed.key))
        .ok_or_else(|| DocError::Invalid("The editor's draft key is not valid.".into()))?;
    let draft = NewDraft {
        key,
        title: typed.title.to_owned(),
        body: super::as_stored(typed.body).into_owned(),
        folder: typed.folder.to_owned(),
        tags: typed.tags.to_owned(),
        updated_at: now_ms(),
    };
    let tx = db.begin_content_write().await?;
    stored::put(&*tx, actor.user_id, &draft)
        .await
        .map_err(|e| {
            // The person is the only row the draft names: an account deleted
            // since the request was let in.
            if crate::db::is_foreign_key_violation(&e) {
                DocError::AccountGone
            } else {
                e.into()
            }
        })?;
    tx.commit().await?;
    Ok(draft)
}

/// The writer's own draft under `key`, if any.
pub async fn find(db: &Db, actor: Actor<'_>, key: &str) -> Result<Option<NewDraft>, DocError> {
    Ok(stored::find(&db.read, actor.user_id, key).await?)
}

/// The writer's drafts worth offering back (something typed), the newest first.
pub async fn offers(db: &Db, actor: Actor<'_>) -> Result<Vec<NewDraft>, DocError> {
    let all = stored::list(&db.read, actor.user_id, OFFERED).await?;
    Ok(all
        .into_iter()
        .filter(|d| !d.title.trim().is_empty() || !d.body.trim().is_empty())
        .collect())
}

/// Throws the writer's draft under `key` away (discarded, or made a document).
pub async fn remove(db: &Db, actor: Actor<'_>, key: &str) -> Result<(), DocError> {
    let tx = db.begin_content_write().await?;
    stored::remove(&*tx, actor.user_id, key).await?;
    tx.commit().await?;
    Ok(())
}
