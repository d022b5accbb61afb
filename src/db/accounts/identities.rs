//! Single sign-on's records: which account an identity provider's person is,
//! and which groups the provider keeps in step.

use crate::db::Conn;

use super::User;

/// The account linked to the provider's person, with when it was disabled.
pub async fn linked(
    ex: &impl Conn,
    issuer: &str,
    subject: &str,
) -> Result<Option<(User, Option<i64>)>, crate::db::Error> {
    let row: Option<(i64, String, bool, Option<i64>)> = crate::db::query_as(
        "SELECT u.id, u.username, u.is_admin, u.disabled_at
         FROM identities i JOIN users u ON u.id = i.user_id
         WHERE i.issuer = $1 AND i.subject = $2",
    )
    .bind(issuer)
    .bind(subject)
    .fetch_optional(ex)
    .await?;
    Ok(row.map(|(id, username, is_admin, disabled)| {
        (
            User {
                id,
                username,
                is_admin,
                unread: 0,
            },
            disabled,
        )
    }))
}

pub async fn link(
    ex: &impl Conn,
    issuer: &str,
    subject: &str,
    user: i64,
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO identities (issuer, subject, user_id, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(issuer)
    .bind(subject)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A group by name (case aside): its id and who keeps it.
pub async fn group_by_name(
    ex: &impl Conn,
    name: &str,
) -> Result<Option<(i64, Option<String>)>, crate::db::Error> {
    crate::db::query_as("SELECT id, managed_by FROM user_groups WHERE lower(name) = lower($1)")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// A new group the provider keeps.
pub async fn insert_group(
    ex: &impl Conn,
    name: &str,
    issuer: &str,
    now: i64,
) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(
        "INSERT INTO user_groups (name, created_at, managed_by) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(name)
    .bind(now)
    .bind(issuer)
    .fetch_one(ex)
    .await
}

/// The provider keeps this group from now on.
pub async fn adopt_group(ex: &impl Conn, id: i64, issuer: &str) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE user_groups SET managed_by = $1 WHERE id = $2")
        .bind(issuer)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The groups `issuer` keeps that `user` is in.
pub async fn managed_memberships(
    ex: &impl Conn,
    user: i64,
    issuer: &str,
) -> Result<Vec<(i64, String)>, crate::db::Error> {
    crate::db::query_as(
        "SELECT g.id, g.name FROM group_members gm JOIN user_groups g ON g.id = gm.group_id
         WHERE gm.user_id = $1 AND g.managed_by = $2 ORDER BY g.id",
    )
    .bind(user)
    .bind(issuer)
    .fetch_all(ex)
    .await
}

/// Whom the providers know `user` as: (issuer, subject), oldest first.
pub async fn of_user(ex: &impl Conn, user: i64) -> Result<Vec<(String, String)>, crate::db::Error> {
    crate::db::query_as(
        "SELECT issuer, subject FROM identities WHERE user_id = $1 ORDER BY created_at, issuer",
    )
    .bind(user)
    .fetch_all(ex)
    .await
}
