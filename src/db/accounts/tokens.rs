//! API tokens, stored by their SHA-256.

use super::User;

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

/// A live token's user (enabled), with the token's id and last use.
#[derive(Debug, Clone)]
pub struct Holder {
    pub user: User,
    pub token_id: i64,
    pub last_used_at: Option<i64>,
}

pub async fn insert(
    conn: &impl crate::db::Conn,
    user_id: i64,
    name: &str,
    token_hash: &[u8],
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO api_tokens (user_id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(user_id)
    .bind(name)
    .bind(token_hash)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// The user's live tokens, newest first.
pub async fn list(
    ex: &impl crate::db::Conn,
    user_id: i64,
) -> Result<Vec<TokenRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT id, name, created_at, last_used_at FROM api_tokens
         WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id DESC",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await
}

/// False when the user has no such live token.
pub async fn revoke(
    conn: &impl crate::db::Conn,
    user_id: i64,
    id: i64,
    now: i64,
) -> Result<bool, crate::db::Error> {
    let done = crate::db::query(
        "UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(id)
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Who holds the live token with this hash, if their account is enabled.
pub async fn holder(
    ex: &impl crate::db::Conn,
    token_hash: &[u8],
) -> Result<Option<Holder>, crate::db::Error> {
    let row: Option<(i64, String, bool, i64, Option<i64>)> = crate::db::query_as(
        "SELECT u.id, u.username, u.is_admin, t.id, t.last_used_at FROM api_tokens t
         JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(ex)
    .await?;
    Ok(
        row.map(|(id, username, is_admin, token_id, last_used_at)| Holder {
            user: User {
                id,
                username,
                is_admin,
            },
            token_id,
            last_used_at,
        }),
    )
}

pub async fn mark_used(
    conn: &impl crate::db::Conn,
    id: i64,
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}
