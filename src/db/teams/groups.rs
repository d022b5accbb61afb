//! Groups and who is in them.

use crate::db::Conn;

use super::Member;

#[derive(Debug, Clone)]
pub struct GroupRow {
    pub id: i64,
    pub name: String,
    pub people: i64,
    /// The identity provider that keeps this group in step (single sign-on).
    pub managed_by: Option<String>,
}
crate::db::from_row!(GroupRow {
    id,
    name,
    people,
    managed_by
});

/// Every group, by name, with how many people are in it.
pub async fn list(ex: &impl Conn) -> Result<Vec<GroupRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT g.id, g.name, (SELECT count(*) FROM group_members gm WHERE gm.group_id = g.id) AS people,
                g.managed_by
         FROM user_groups g ORDER BY lower(g.name), g.id",
    )
    .fetch_all(ex)
    .await
}

pub async fn find(ex: &impl Conn, id: i64) -> Result<Option<GroupRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT g.id, g.name, (SELECT count(*) FROM group_members gm WHERE gm.group_id = g.id) AS people,
                g.managed_by
         FROM user_groups g WHERE g.id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// A group by name (case aside): its id.
pub async fn id_by_name(ex: &impl Conn, name: &str) -> Result<Option<i64>, crate::db::Error> {
    crate::db::query_scalar("SELECT id FROM user_groups WHERE lower(name) = lower($1)")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// A new group; a taken name is a unique violation.
pub async fn insert(ex: &impl Conn, name: &str, now: i64) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(
        "INSERT INTO user_groups (name, created_at) VALUES ($1, $2) RETURNING id",
    )
    .bind(name)
    .bind(now)
    .fetch_one(ex)
    .await
}

pub async fn delete(ex: &impl Conn, id: i64) -> Result<bool, crate::db::Error> {
    let n = crate::db::query("DELETE FROM user_groups WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(n.rows_affected() > 0)
}

/// The people in a group, by name (`Member::id` is the person's id).
pub async fn members(ex: &impl Conn, id: i64) -> Result<Vec<Member>, crate::db::Error> {
    crate::db::query_as(
        "SELECT u.id, u.username AS name, CAST(0 AS BIGINT) AS is_group, CAST(0 AS BIGINT) AS role
         FROM group_members gm JOIN users u ON u.id = gm.user_id
         WHERE gm.group_id = $1 ORDER BY lower(u.username)",
    )
    .bind(id)
    .fetch_all(ex)
    .await
}

pub async fn add_member(ex: &impl Conn, id: i64, user: i64) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO group_members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(user)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn remove_member(ex: &impl Conn, id: i64, user: i64) -> Result<bool, crate::db::Error> {
    let n = crate::db::query("DELETE FROM group_members WHERE group_id = $1 AND user_id = $2")
        .bind(id)
        .bind(user)
        .execute(ex)
        .await?;
    Ok(n.rows_affected() > 0)
}

/// Shares document `seq` with a group, or changes what its members may do.
pub async fn share(
    ex: &impl Conn,
    seq: i64,
    group: i64,
    can_edit: bool,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO document_group_shares (doc_seq, group_id, can_edit) VALUES ($1, $2, $3)
         ON CONFLICT (doc_seq, group_id) DO UPDATE SET can_edit = excluded.can_edit",
    )
    .bind(seq)
    .bind(group)
    .bind(i64::from(can_edit))
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn unshare(ex: &impl Conn, seq: i64, group: i64) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM document_group_shares WHERE doc_seq = $1 AND group_id = $2")
        .bind(seq)
        .bind(group)
        .execute(ex)
        .await?;
    Ok(())
}

/// The groups document `seq` is shared with: (group id, name, may edit).
pub async fn shares(ex: &impl Conn, seq: i64) -> Result<Vec<(i64, String, i64)>, crate::db::Error> {
    crate::db::query_as(
        "SELECT g.id, g.name, s.can_edit FROM document_group_shares s
         JOIN user_groups g ON g.id = s.group_id WHERE s.doc_seq = $1 ORDER BY lower(g.name)",
    )
    .bind(seq)
    .fetch_all(ex)
    .await
}
