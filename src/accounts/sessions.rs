//! Sessions: a random 256-bit token in the cookie, its SHA-256 in the database.

use sha2::{Digest, Sha256};

use super::{User, audit};
use crate::db::Db;
use crate::db::accounts::sessions::{self as stored, Limits};
use crate::documents::{DocId, Document, now_ms};
use crate::random::random_token;

/// A session unused this long ends.
pub const SESSION_IDLE_MS: i64 = 7 * 24 * 3600 * 1000;
/// No session lives longer than this, used or not.
pub const SESSION_ABSOLUTE_MS: i64 = 30 * 24 * 3600 * 1000;
/// `last_seen` is written at most this often, so page views stay reads.
const TOUCH_EVERY_MS: i64 = 5 * 60 * 1000;

pub(super) fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

pub async fn start_session(db: &Db, user: &User) -> Result<String, crate::db::Error> {
    let token = random_token();
    let tx = db.begin_write().await?;
    stored::insert(&*tx, &token_hash(&token), user.id, now_ms()).await?;
    tx.commit().await?;
    Ok(token)
}

fn limits(now: i64) -> Limits {
    Limits {
        seen_after: now - SESSION_IDLE_MS,
        created_after: now - SESSION_ABSOLUTE_MS,
    }
}

/// The signed-in user for a cookie token, if the session is live and the account
/// enabled. One read; a write only when `last_seen` is several minutes old.
pub async fn session_user(db: &Db, token: &str) -> Result<Option<User>, crate::db::Error> {
    if token.len() != 64 {
        return Ok(None);
    }
    let now = now_ms();
    let hash = token_hash(token);
    let Some(live) = stored::find_live(&db.read, &hash, limits(now)).await? else {
        return Ok(None);
    };
    touch(db, &hash, live.last_seen, now).await?;
    Ok(Some(live.user))
}

/// `session_user` and the document `id` with the user's access to it, in one
/// query: a page view costs one round trip to SQLite, not two. `None` when the
/// session is not live; the document is `None` when no such id exists.
pub async fn session_user_with_document(
    db: &Db,
    token: &str,
    id: &DocId,
) -> Result<Option<(User, Option<Document>)>, crate::db::Error> {
    if token.len() != 64 {
        return Ok(None);
    }
    let now = now_ms();
    let hash = token_hash(token);
    let found = stored::find_live_with_document(&db.read, &hash, limits(now), id.as_str()).await?;
    let Some((live, doc)) = found else {
        return Ok(None);
    };
    touch(db, &hash, live.last_seen, now).await?;
    Ok(Some((live.user, doc)))
}

/// Writes `last_seen` when it is several minutes old, so page views stay reads.
async fn touch(db: &Db, hash: &[u8], last_seen: i64, now: i64) -> Result<(), crate::db::Error> {
    if now - last_seen > TOUCH_EVERY_MS {
        stored::touch(&db.write, hash, now).await?;
    }
    Ok(())
}

pub async fn end_session(
    db: &Db,
    token: &str,
    user: Option<&User>,
) -> Result<(), crate::db::Error> {
    let tx = db.begin_write().await?;
    stored::delete(&*tx, &token_hash(token)).await?;
    if let Some(u) = user {
        audit(&tx, Some(u.id), "logout", "").await?;
    }
    tx.commit().await?;
    Ok(())
}
