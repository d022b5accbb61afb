//! API tokens for scripts: `qt_` and 64 hex characters, stored as a SHA-256 hash,
//! shown once.

use sha2::{Digest, Sha256};

use super::{AccountError, User, audit, random_token};
use crate::db::Db;
use crate::documents::now_ms;

use crate::db::accounts::tokens as stored;
pub use crate::db::accounts::tokens::{Holder, TokenRow};

fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Makes a token and returns it: the only time its text exists outside the client.
pub async fn create(db: &Db, user: &User, name: &str) -> Result<String, AccountError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(AccountError::Invalid(
            "Give the token a name of 1 to 100 characters.".into(),
        ));
    }
    let token = format!("qt_{}", random_token());
    let tx = db.begin_write().await?;
    stored::insert(&*tx, user.id, name, &hash(&token), now_ms()).await?;
    audit(&tx, Some(user.id), "token.created", name).await?;
    tx.commit().await?;
    Ok(token)
}

pub async fn list(db: &Db, user: &User) -> Result<Vec<TokenRow>, crate::db::Error> {
    stored::list(&db.read, user.id).await
}

pub async fn revoke(db: &Db, user: &User, id: i64) -> Result<bool, crate::db::Error> {
    let tx = db.begin_write().await?;
    let revoked = stored::revoke(&*tx, user.id, id, now_ms()).await?;
    audit(&tx, Some(user.id), "token.revoked", &id.to_string()).await?;
    tx.commit().await?;
    Ok(revoked)
}

/// A token's use is written down at most this often.
const USE_LOGGED_EVERY_MS: i64 = 3_600_000;

fn token_shaped(token: &str) -> bool {
    token.starts_with("qt_") && token.len() == 67
}

/// The key a token is known by: its hash (`None` for text that cannot be one).
pub fn token_key(token: &str) -> Option<Vec<u8>> {
    token_shaped(token).then(|| hash(token))
}

/// True when a token last known used at `last_used_at` needs no write at
/// `now` to say it was used: what a request may answer from a cache.
pub fn used_without_write(last_used_at: Option<i64>, now: i64) -> bool {
    last_used_at.is_some_and(|t| now - t <= USE_LOGGED_EVERY_MS)
}

/// The enabled user a bearer token belongs to, with when its use was last
/// written down. Use is logged at most hourly.
pub async fn holder_of(db: &Db, token: &str) -> Result<Option<Holder>, crate::db::Error> {
    if !token_shaped(token) {
        return Ok(None);
    }
    let h = hash(token);
    let Some(mut holder) = stored::holder(&db.read, &h).await? else {
        return Ok(None);
    };
    let now = now_ms();
    if !used_without_write(holder.last_used_at, now) {
        let tx = db.begin_write().await?;
        // Looked up on a reader: revoked or deleted with its account since.
        if !stored::mark_used(&*tx, holder.token_id, now).await? {
            tx.rollback().await?;
            return Ok(None);
        }
        let detail = holder.token_id.to_string();
        audit(&tx, Some(holder.user.id), "token.used", &detail).await?;
        tx.commit().await?;
        holder.last_used_at = Some(now);
    }
    Ok(Some(holder))
}
