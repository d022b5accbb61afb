//! Sessions: a random 256-bit token in the cookie, its SHA-256 in the database.

use sha2::{Digest, Sha256};

use super::{User, audit};
use crate::db::Db;
pub use crate::db::accounts::sessions::Live;
use crate::db::accounts::sessions::{self as stored, Limits};
use crate::documents::{DocId, Document, now_ms};
use crate::random::random_token;

/// A session unused this long ends.
pub const SESSION_IDLE_MS: i64 = 7 * 24 * 3600 * 1000;
/// No session lives longer than this, used or not.
pub const SESSION_ABSOLUTE_MS: i64 = 30 * 24 * 3600 * 1000;
/// `last_seen` is written at most this often, so page views stay reads: an idle
/// session ends within an hour of its 7 days. Each write empties the page cache
/// (`web::cache`), so it is kept rare (every 5 minutes per session emptied it
/// several times a minute on a busy server).
const TOUCH_EVERY_MS: i64 = 60 * 60 * 1000;

pub(super) fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

pub async fn start_session(db: &Db, user: &User) -> Result<String, crate::db::Error> {
    let token = random_token();
    let now = now_ms();
    let tx = db.begin_write().await?;
    stored::insert(&*tx, &token_hash(&token), user.id, now, now).await?;
    tx.commit().await?;
    Ok(token)
}

/// A session that ends `life_ms` after it starts however much it is used, if
/// that is sooner than `SESSION_ABSOLUTE_MS` (single sign-on's sessions end
/// within the idle limit, so a change at the provider reaches quire then at the
/// latest). One absolute limit is kept per row: a shorter life is stored as
/// an earlier start.
pub async fn start_session_lasting(
    db: &Db,
    user: &User,
    life_ms: i64,
) -> Result<String, crate::db::Error> {
    let token = random_token();
    let now = now_ms();
    let start = now - (SESSION_ABSOLUTE_MS - life_ms.clamp(0, SESSION_ABSOLUTE_MS));
    let tx = db.begin_write().await?;
    stored::insert(&*tx, &token_hash(&token), user.id, start, now).await?;
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
    Ok(live_session(db, token).await?.map(|live| live.user))
}

/// `session_user` with the session's times, as a cache keeps them.
pub async fn live_session(db: &Db, token: &str) -> Result<Option<Live>, crate::db::Error> {
    let Some(hash) = session_key(token) else {
        return Ok(None);
    };
    let now = now_ms();
    let Some(mut live) = stored::find_live(&db.read, &hash, limits(now)).await? else {
        return Ok(None);
    };
    touch(db, &hash, &mut live, now).await?;
    Ok(Some(live))
}

/// True when a session last known as `live` is live at `now` and needs no
/// write to say it was seen: what a page view may answer from a cache.
pub fn live_without_write(live: &Live, now: i64) -> bool {
    let limits = limits(now);
    now - live.last_seen <= TOUCH_EVERY_MS
        && live.last_seen > limits.seen_after
        && live.created_at > limits.created_after
}

/// The key a session is known by: its token's hash (`None` for a token that
/// cannot be one).
pub fn session_key(token: &str) -> Option<Vec<u8>> {
    (token.len() == 64).then(|| token_hash(token))
}

/// `session_user` and the document `id` with the user's access to it, in one
/// query: a page view costs one round trip to SQLite, not two. `None` when the
/// session is not live; the document is `None` when no such id exists.
pub async fn session_user_with_document(
    db: &Db,
    token: &str,
    id: &DocId,
) -> Result<Option<(Live, Option<Document>)>, crate::db::Error> {
    let Some(hash) = session_key(token) else {
        return Ok(None);
    };
    let now = now_ms();
    let found = stored::find_live_with_document(&db.read, &hash, limits(now), id.as_str()).await?;
    let Some((mut live, doc)) = found else {
        return Ok(None);
    };
    touch(db, &hash, &mut live, now).await?;
    Ok(Some((live, doc)))
}

/// Writes `last_seen` when it is several minutes old, so page views stay reads.
async fn touch(db: &Db, hash: &[u8], live: &mut Live, now: i64) -> Result<(), crate::db::Error> {
    if now - live.last_seen > TOUCH_EVERY_MS {
        stored::touch(&db.write, hash, now).await?;
        db.changes.bump();
        live.last_seen = now;
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
