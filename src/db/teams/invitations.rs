//! One-use links to join quire or to set a new password; only a hash of each
//! token is kept.

use crate::db::Conn;

/// An invitation as it was made.
#[derive(Debug, Clone)]
pub struct Invitation {
    pub kind: String,
    pub for_user: Option<i64>,
    pub created_by: Option<i64>,
    pub space_roles: String,
    pub group_ids: String,
    pub expires_at: i64,
}
crate::db::from_row!(Invitation {
    kind,
    for_user,
    created_by,
    space_roles,
    group_ids,
    expires_at
});

/// A pending invitation as the admin's list shows it (no token).
#[derive(Debug, Clone)]
pub struct Pending {
    pub kind: String,
    pub for_name: Option<String>,
    pub by_name: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}
crate::db::from_row!(Pending {
    kind,
    for_name,
    by_name,
    created_at,
    expires_at
});

pub async fn insert(
    ex: &impl Conn,
    token_hash: &[u8],
    made: &Invitation,
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO invitations (token_hash, kind, for_user, created_by, space_roles, group_ids, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(token_hash.to_vec())
    .bind(made.kind.clone())
    .bind(made.for_user)
    .bind(made.created_by)
    .bind(made.space_roles.clone())
    .bind(made.group_ids.clone())
    .bind(now)
    .bind(made.expires_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// The unused, unexpired invitation of `kind` with this token hash.
pub async fn find_open(
    ex: &impl Conn,
    token_hash: &[u8],
    kind: &str,
    now: i64,
) -> Result<Option<Invitation>, crate::db::Error> {
    crate::db::query_as(
        "SELECT kind, for_user, created_by, space_roles, group_ids, expires_at FROM invitations
         WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(token_hash.to_vec())
    .bind(kind)
    .bind(now)
    .fetch_optional(ex)
    .await
}

/// Marks an open invitation used; false when it was not open (used meanwhile,
/// or expired): the claim that makes it one use.
pub async fn claim(
    ex: &impl Conn,
    token_hash: &[u8],
    now: i64,
    by: i64,
) -> Result<bool, crate::db::Error> {
    let n = crate::db::query(
        "UPDATE invitations SET used_at = $2, used_by = $3
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash.to_vec())
    .bind(now)
    .bind(by)
    .execute(ex)
    .await?;
    Ok(n.rows_affected() == 1)
}

/// Invitations not used and not expired, newest first.
pub async fn pending(ex: &impl Conn, now: i64) -> Result<Vec<Pending>, crate::db::Error> {
    crate::db::query_as(
        "SELECT i.kind, f.username AS for_name, b.username AS by_name, i.created_at, i.expires_at
         FROM invitations i LEFT JOIN users f ON f.id = i.for_user LEFT JOIN users b ON b.id = i.created_by
         WHERE i.used_at IS NULL AND i.expires_at > $1 ORDER BY i.created_at DESC LIMIT 100",
    )
    .bind(now)
    .fetch_all(ex)
    .await
}
