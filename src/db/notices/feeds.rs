//! The token that opens a person's feed of recent changes, kept as its hash.

use crate::db::{Conn, Error};

/// Sets (or with `None` removes) the person's feed token hash.
pub async fn set_token(ex: &impl Conn, user: i64, hash: Option<&[u8]>) -> Result<(), Error> {
    crate::db::query("UPDATE users SET feed_token_hash = $2 WHERE id = $1")
        .bind(user)
        .bind(hash.map(<[u8]>::to_vec))
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether the person has a feed token.
pub async fn has_token(ex: &impl Conn, user: i64) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar(
        "SELECT id FROM users WHERE id = $1 AND feed_token_hash IS NOT NULL",
    )
    .bind(user)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// The enabled account whose feed token has this hash: (id, name).
pub async fn reader(ex: &impl Conn, hash: &[u8]) -> Result<Option<(i64, String)>, Error> {
    crate::db::query_as(
        "SELECT id, username FROM users WHERE feed_token_hash = $1 AND disabled_at IS NULL",
    )
    .bind(hash.to_vec())
    .fetch_optional(ex)
    .await
}
