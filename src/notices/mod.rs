//! Knowing what changed: watching documents, folders and spaces, each
//! person's inbox of notices, and recent changes. The notices are made after
//! the commits that cause them (`notifier`); everything a person is shown here
//! is filtered by what they may read at the moment it is shown.

pub mod feeds;
pub mod mail;
pub mod mentions;
pub mod notifier;
pub mod presence;
pub mod recent;

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::notices::{inbox as stored, watches};
use crate::documents::access::{Actor, authorize};
use crate::documents::{Access, DocError, DocId};

pub use crate::db::notices::inbox::NoticeRow;

/// Notices listed at most.
const MOST: i64 = 200;

/// One notice as the inbox shows it: what happened, in words, and where it leads.
#[derive(Debug, Clone)]
pub struct Notice {
    pub id: i64,
    pub unread: bool,
    pub at: i64,
    /// The document's title or the space's name.
    pub subject: String,
    /// "alice edited (3 saves)", "bob shared it with you", …
    pub what: String,
}

impl Notice {
    fn from_row(row: NoticeRow) -> Self {
        let who = row.actor.clone().unwrap_or_else(|| "Someone".to_owned());
        let what = match row.kind.as_str() {
            "edited" if row.first_rev == Some(1) && row.count == 1 => format!("{who} created it"),
            "edited" if row.count == 1 => format!("{who} edited it"),
            "edited" => format!("{} saves, the last by {who}", row.count),
            "mentioned" => format!("{who} mentioned you"),
            "commented" if row.count == 1 => format!("{who} commented"),
            "commented" => format!("{} comments, the last by {who}", row.count),
            "comment_mention" => format!("{who} mentioned you in a comment"),
            "suggested" if row.count == 1 => format!("{who} suggested an edit"),
            "suggested" => format!("{} suggested edits, the last by {who}", row.count),
            "suggestion_accepted" => format!("{who} accepted your suggested edit"),
            "suggestion_declined" => format!("{who} declined your suggested edit"),
            "shared" => format!("{who} shared it with you"),
            _ => format!("{who} added you to this space"),
        };
        let subject = row
            .doc_title
            .clone()
            .or_else(|| row.space_name.clone())
            .unwrap_or_default();
        Self {
            id: row.id,
            unread: row.read_at.is_none(),
            at: row.updated_at,
            subject,
            what,
        }
    }
}

/// Where a notice leads: an edit to the changes it gathers, the rest to the
/// document or the space's list.
pub fn target(row: &NoticeRow) -> String {
    match (&row.doc_id, row.space_id) {
        (Some(id), _) => match (row.kind.as_str(), row.first_rev, row.last_rev) {
            ("edited", Some(first), Some(last)) if first > 1 => {
                format!("/d/{id}/diff?from={}&to={last}", first - 1)
            }
            ("commented" | "comment_mention", _, Some(comment)) => {
                format!("/d/{id}#comment-{comment}")
            }
            ("suggested" | "suggestion_accepted" | "suggestion_declined", _, Some(s)) => {
                format!("/d/{id}/suggestions/{s}")
            }
            _ => format!("/d/{id}"),
        },
        (None, Some(space)) => format!("/?space={space}"),
        (None, None) => "/inbox".to_owned(),
    }
}

/// The person's notices, unread first.
pub async fn inbox(db: &Db, actor: Actor<'_>) -> Result<Vec<Notice>, DocError> {
    let rows = stored::list(&db.read, actor.user_id, MOST).await?;
    Ok(rows.into_iter().map(Notice::from_row).collect())
}

/// Marks notice `id` read and says where it leads; `None` when it is not the
/// person's or no longer about something they may read.
pub async fn open(db: &Db, actor: Actor<'_>, id: i64) -> Result<Option<String>, DocError> {
    let Some(row) = stored::find(&db.read, actor.user_id, id).await? else {
        return Ok(None);
    };
    if row.read_at.is_none() {
        mark_read(db, actor, id).await?;
    }
    Ok(Some(target(&row)))
}

pub async fn mark_read(db: &Db, actor: Actor<'_>, id: i64) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    stored::mark_read(&*tx, actor.user_id, id, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn mark_all_read(db: &Db, actor: Actor<'_>) -> Result<u64, DocError> {
    let tx = db.begin_write().await?;
    let n = stored::mark_all_read(&*tx, actor.user_id, now_ms()).await?;
    tx.commit().await?;
    Ok(n)
}

/// Whether the person watches document `doc_seq` (which they must be able to read).
pub async fn watches_document(db: &Db, actor: Actor<'_>, doc_seq: i64) -> Result<bool, DocError> {
    Ok(watches::document(&db.read, actor.user_id, doc_seq).await?)
}

/// Starts or stops watching document `id`; a document the person may not read
/// is missing.
pub async fn watch_document(
    db: &Db,
    actor: Actor<'_>,
    id: &DocId,
    on: bool,
) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = authorize(&*tx, id, actor.into(), Access::Read).await?;
    watches::set_document(&*tx, actor.user_id, doc.seq, on, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the person watches space `space`'s folder `folder` ('' the space).
pub async fn watches_place(
    db: &Db,
    actor: Actor<'_>,
    space: i64,
    folder: &str,
) -> Result<bool, DocError> {
    Ok(watches::place(&db.read, actor.user_id, space, folder).await?)
}

/// Starts or stops watching space `space`'s folder `folder` ('' the whole
/// space); only a member of the space may (another space is missing).
pub async fn watch_place(
    db: &Db,
    actor: Actor<'_>,
    space: i64,
    folder: &str,
    on: bool,
) -> Result<(), DocError> {
    let folder = crate::documents::place::folder_path(folder)?;
    let tx = db.begin_write().await?;
    if crate::db::teams::spaces::role(&*tx, space, actor.user_id).await? < 1 {
        return Err(DocError::NotFound);
    }
    watches::set_place(&*tx, actor.user_id, space, &folder, on, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the person watches what they create, edit or are mentioned in.
pub async fn watch_own(db: &Db, actor: Actor<'_>) -> Result<bool, DocError> {
    Ok(watches::watch_own(&db.read, actor.user_id).await?)
}

pub async fn set_watch_own(db: &Db, actor: Actor<'_>, on: bool) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    watches::set_watch_own(&*tx, actor.user_id, on).await?;
    tx.commit().await?;
    Ok(())
}

/// How often a person wants mail about their notices.
pub const MAIL_EVERY: [&str; 4] = ["instant", "hourly", "daily", "off"];

/// A person's mail settings: their address (if any) and how often.
pub async fn mail_settings(
    db: &Db,
    actor: Actor<'_>,
) -> Result<(Option<String>, String), DocError> {
    Ok(crate::db::notices::mail::settings(&db.read, actor.user_id).await?)
}

/// Sets where and how often a person's notices are mailed; an empty address
/// means no mail.
pub async fn set_mail(db: &Db, actor: Actor<'_>, email: &str, every: &str) -> Result<(), DocError> {
    let email = email.trim();
    if !MAIL_EVERY.contains(&every) {
        return Err(DocError::Invalid(
            "Choose how often: instant, hourly, daily or off.".into(),
        ));
    }
    let email = match email {
        "" => None,
        e if e.len() <= 254 && e.parse::<lettre::Address>().is_ok() => Some(e),
        e => {
            return Err(DocError::Invalid(format!(
                "{e:?} is not an email address quire can send to."
            )));
        }
    };
    let key = crate::random::random_token();
    let tx = db.begin_write().await?;
    crate::db::notices::mail::set_settings(&*tx, actor.user_id, email, every, &key).await?;
    tx.commit().await?;
    Ok(())
}

/// The address an unsubscribe link's key mails to, and whether mail is on.
pub async fn unsubscribing(db: &Db, key: &str) -> Result<Option<(String, bool)>, DocError> {
    if !crate::random::looks_like_token(key) {
        return Ok(None);
    }
    Ok(crate::db::notices::mail::by_key(&db.read, key).await?)
}

/// Turns mail off for the person whose unsubscribe link this is; false for
/// a link that is no one's.
pub async fn unsubscribe(db: &Db, key: &str) -> Result<bool, DocError> {
    if !crate::random::looks_like_token(key) {
        return Ok(false);
    }
    let tx = db.begin_write().await?;
    let done = crate::db::notices::mail::unsubscribe(&*tx, key).await?;
    tx.commit().await?;
    Ok(done)
}
