//! Sessions: a random 256-bit token in the cookie, its SHA-256 in the database.

use sha2::{Digest, Sha256};

use super::{User, audit};
use crate::db::{Db, FromRow};
use crate::documents::{DocId, Document, access, now_ms};
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
    let now = now_ms();
    let tx = db.begin_write().await?;
    crate::db::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, last_seen) VALUES ($1, $2, $3, $3)",
    )
    .bind(token_hash(&token))
    .bind(user.id)
    .bind(now)
    .execute(&*tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Live sessions: the token's hash is `$1`, the idle and absolute limits `$2`, `$3`.
const LIVE_SESSION: &str = "SELECT u.id AS viewer_id, u.username AS viewer_name,
        u.is_admin AS viewer_admin, s.last_seen AS viewer_seen
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = $1 AND u.disabled_at IS NULL
      AND s.last_seen > $2 AND s.created_at > $3";

/// The signed-in user for a cookie token, if the session is live and the account
/// enabled. One read; a write only when `last_seen` is several minutes old.
pub async fn session_user(db: &Db, token: &str) -> Result<Option<User>, crate::db::Error> {
    if token.len() != 64 {
        return Ok(None);
    }
    let now = now_ms();
    let hash = token_hash(token);
    let row: Option<(i64, String, bool, i64)> = crate::db::query_as(LIVE_SESSION)
        .bind(&hash)
        .bind(now - SESSION_IDLE_MS)
        .bind(now - SESSION_ABSOLUTE_MS)
        .fetch_optional(&db.read)
        .await?;
    let Some((id, username, is_admin, last_seen)) = row else {
        return Ok(None);
    };
    touch(db, &hash, last_seen, now).await?;
    Ok(Some(User {
        id,
        username,
        is_admin,
    }))
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
    let row = crate::db::query(format!(
        "SELECT v.*, {} FROM ({LIVE_SESSION}) AS v LEFT JOIN documents ON documents.id = $4",
        access::document_with_access("v.viewer_id")
    ))
    .bind(&hash)
    .bind(now - SESSION_IDLE_MS)
    .bind(now - SESSION_ABSOLUTE_MS)
    .bind(id.as_str())
    .fetch_optional(&db.read)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let user = User {
        id: row.try_get("viewer_id")?,
        username: row.try_get("viewer_name")?,
        is_admin: row.try_get("viewer_admin")?,
    };
    let seen: i64 = row.try_get("viewer_seen")?;
    let doc = match row.try_get::<Option<i64>>("seq")? {
        Some(_) => Some(Document::from_row(row)?),
        None => None,
    };
    touch(db, &hash, seen, now).await?;
    Ok(Some((user, doc)))
}

/// Writes `last_seen` when it is several minutes old, so page views stay reads.
async fn touch(db: &Db, hash: &[u8], last_seen: i64, now: i64) -> Result<(), crate::db::Error> {
    if now - last_seen > TOUCH_EVERY_MS {
        crate::db::query("UPDATE sessions SET last_seen = $1 WHERE token_hash = $2")
            .bind(now)
            .bind(hash)
            .execute(&db.write)
            .await?;
    }
    Ok(())
}

pub async fn end_session(
    db: &Db,
    token: &str,
    user: Option<&User>,
) -> Result<(), crate::db::Error> {
    let tx = db.begin_write().await?;
    crate::db::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash(token))
        .execute(&*tx)
        .await?;
    if let Some(u) = user {
        audit(&tx, Some(u.id), "logout", "").await?;
    }
    tx.commit().await?;
    Ok(())
}
