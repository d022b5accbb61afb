//! API tokens for scripts: `qt_` and 64 hex characters, stored as a SHA-256 hash,
//! shown once.

use sha2::{Digest, Sha256};

use super::{AccountError, User, audit, random_token};
use crate::db::Db;
use crate::documents::now_ms;

#[derive(Debug, Clone)]
pub struct TokenRow {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}
crate::db::from_row!(TokenRow {
    id,
    name,
    created_at,
    last_used_at
});

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
    crate::db::query(
        "INSERT INTO api_tokens (user_id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(user.id)
    .bind(name)
    .bind(hash(&token))
    .bind(now_ms())
    .execute(&*tx)
    .await?;
    audit(&tx, Some(user.id), "token.created", name).await?;
    tx.commit().await?;
    Ok(token)
}

pub async fn list(db: &Db, user: &User) -> Result<Vec<TokenRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT id, name, created_at, last_used_at FROM api_tokens
         WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id DESC",
    )
    .bind(user.id)
    .fetch_all(&db.read)
    .await
}

pub async fn revoke(db: &Db, user: &User, id: i64) -> Result<bool, crate::db::Error> {
    let tx = db.begin_write().await?;
    let done = crate::db::query(
        "UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL",
    )
    .bind(now_ms())
    .bind(id)
    .bind(user.id)
    .execute(&*tx)
    .await?;
    audit(&tx, Some(user.id), "token.revoked", &id.to_string()).await?;
    tx.commit().await?;
    Ok(done.rows_affected() == 1)
}

/// The enabled user a bearer token belongs to. Use is logged at most hourly.
pub async fn user_for(db: &Db, token: &str) -> Result<Option<User>, crate::db::Error> {
    if !token.starts_with("qt_") || token.len() != 67 {
        return Ok(None);
    }
    let h = hash(token);
    let row: Option<(i64, String, bool, i64, Option<i64>)> = crate::db::query_as(
        "SELECT u.id, u.username, u.is_admin, t.id, t.last_used_at FROM api_tokens t
         JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL",
    )
    .bind(&h)
    .fetch_optional(&db.read)
    .await?;
    let Some((id, username, is_admin, token_id, last_used)) = row else {
        return Ok(None);
    };
    let now = now_ms();
    if last_used.is_none_or(|t| now - t > 3_600_000) {
        let tx = db.begin_write().await?;
        crate::db::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
            .bind(now)
            .bind(token_id)
            .execute(&*tx)
            .await?;
        audit(&tx, Some(id), "token.used", &token_id.to_string()).await?;
        tx.commit().await?;
    }
    Ok(Some(User {
        id,
        username,
        is_admin,
    }))
}
