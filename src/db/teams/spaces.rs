//! Spaces and their members.

use crate::db::Conn;

use super::Member;

/// A space as a list shows it to one person: their role there (through
/// themselves or a group), how many people are members and how many live
/// documents it holds.
#[derive(Debug, Clone)]
pub struct SpaceRow {
    pub id: i64,
    pub name: String,
    pub default_role: Option<i64>,
    /// 0 when the person is no member (an admin sees every space).
    pub role: i64,
    pub people: i64,
    pub documents: i64,
    /// Who may comment: 1 whoever may read, 2 only those who may edit.
    pub comment_role: i64,
    /// 1: only managers and each document's owner save; the others suggest.
    pub review_required: i64,
}
crate::db::from_row!(SpaceRow {
    id,
    name,
    default_role,
    role,
    people,
    documents,
    comment_role,
    review_required
});

/// The people who are members of space `space` (a placeholder or column),
/// themselves or through a group, each once.
fn people_of(space: &str) -> String {
    format!(
        "(SELECT m.user_id AS user_id FROM space_members m WHERE m.space_id = {space} AND m.user_id IS NOT NULL
          UNION SELECT gm.user_id FROM space_members m JOIN group_members gm ON gm.group_id = m.group_id
          WHERE m.space_id = {space})"
    )
}

/// `viewer`'s highest role in space `space` (0: none).
fn role_in(space: &str, viewer: &str) -> String {
    format!(
        "COALESCE((SELECT max(m.role) FROM space_members m WHERE m.space_id = {space}
            AND (m.user_id = {viewer} OR m.group_id IN
                 (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = {viewer}))), 0)"
    )
}

fn row_columns() -> String {
    format!(
        "sp.id, sp.name, sp.default_role, {} AS role,
         (SELECT count(*) FROM {} p) AS people,
         (SELECT count(*) FROM documents d WHERE d.space_id = sp.id AND d.deleted_at IS NULL) AS documents,
         sp.comment_role, sp.review_required",
        role_in("sp.id", "$1"),
        people_of("sp.id")
    )
}

/// The spaces `viewer` is a member of, or with `all` every space, by name.
pub async fn list(
    ex: &impl Conn,
    viewer: i64,
    all: bool,
) -> Result<Vec<SpaceRow>, crate::db::Error> {
    let sql = format!(
        "SELECT * FROM (SELECT {} FROM spaces sp) s WHERE s.role > 0 OR $2 = 1 ORDER BY lower(s.name), s.id",
        row_columns()
    );
    crate::db::query_as(sql)
        .bind(viewer)
        .bind(i64::from(all))
        .fetch_all(ex)
        .await
}

/// The spaces `viewer` may read in, (id, name) by name: the list's choice.
pub async fn names(ex: &impl Conn, viewer: i64) -> Result<Vec<(i64, String)>, crate::db::Error> {
    names_with(ex, viewer, 1).await
}

/// The spaces where `viewer` has at least `role` (1 read, 2 edit, 3 manage),
/// (id, name) by name.
pub async fn names_with(
    ex: &impl Conn,
    viewer: i64,
    role: i64,
) -> Result<Vec<(i64, String)>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT id, name FROM spaces WHERE id IN {} ORDER BY lower(name), id",
        crate::db::documents::spaces_of("$1", role)
    ))
    .bind(viewer)
    .fetch_all(ex)
    .await
}

/// One space as `viewer` sees it.
pub async fn find(
    ex: &impl Conn,
    viewer: i64,
    id: i64,
) -> Result<Option<SpaceRow>, crate::db::Error> {
    let sql = format!("SELECT {} FROM spaces sp WHERE sp.id = $2", row_columns());
    crate::db::query_as(sql)
        .bind(viewer)
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// Every space: (id, name), by name.
pub async fn all_names(ex: &impl Conn) -> Result<Vec<(i64, String)>, crate::db::Error> {
    crate::db::query_as("SELECT id, name FROM spaces ORDER BY lower(name), id")
        .fetch_all(ex)
        .await
}

/// The role new accounts get in space `id`, if any.
pub async fn default_role(ex: &impl Conn, id: i64) -> Result<Option<i64>, crate::db::Error> {
    let row: Option<(Option<i64>,)> =
        crate::db::query_as("SELECT default_role FROM spaces WHERE id = $1")
            .bind(id)
            .fetch_optional(ex)
            .await?;
    Ok(row.and_then(|r| r.0))
}

/// A space by name (case aside): its id.
pub async fn id_by_name(ex: &impl Conn, name: &str) -> Result<Option<i64>, crate::db::Error> {
    crate::db::query_scalar("SELECT id FROM spaces WHERE lower(name) = lower($1)")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// `viewer`'s role in space `id` (0: none).
pub async fn role(ex: &impl Conn, id: i64, viewer: i64) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(format!("SELECT {}", role_in("$1", "$2")))
        .bind(id)
        .bind(viewer)
        .fetch_one(ex)
        .await
}

/// A new space; a taken name is a unique violation.
pub async fn insert(
    ex: &impl Conn,
    name: &str,
    default_role: Option<i64>,
    now: i64,
) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(
        "INSERT INTO spaces (name, default_role, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(name)
    .bind(default_role)
    .bind(now)
    .fetch_one(ex)
    .await
}

pub async fn update(
    ex: &impl Conn,
    id: i64,
    name: &str,
    default_role: Option<i64>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE spaces SET name = $2, default_role = $3 WHERE id = $1")
        .bind(id)
        .bind(name)
        .bind(default_role)
        .execute(ex)
        .await?;
    Ok(())
}

/// Removes a space; its documents go back to their owners' personal spaces.
pub async fn delete(ex: &impl Conn, id: i64) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE documents SET space_id = NULL WHERE space_id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    crate::db::query("DELETE FROM spaces WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// A space's members: people and groups, highest role first, then by name.
pub async fn members(ex: &impl Conn, id: i64) -> Result<Vec<Member>, crate::db::Error> {
    crate::db::query_as(
        "SELECT m.id, COALESCE(u.username, g.name) AS name,
                CAST(CASE WHEN m.group_id IS NULL THEN 0 ELSE 1 END AS BIGINT) AS is_group, m.role
         FROM space_members m
         LEFT JOIN users u ON u.id = m.user_id
         LEFT JOIN user_groups g ON g.id = m.group_id
         WHERE m.space_id = $1 ORDER BY m.role DESC, lower(COALESCE(u.username, g.name))",
    )
    .bind(id)
    .fetch_all(ex)
    .await
}

/// Who a member is: a person or a group.
#[derive(Debug, Clone, Copy)]
pub enum Who {
    Person(i64),
    Group(i64),
}

/// Makes `who` a member with `role` (true), or changes their role (false).
pub async fn put_member(
    ex: &impl Conn,
    id: i64,
    who: Who,
    role: i64,
) -> Result<bool, crate::db::Error> {
    let (user, group) = match who {
        Who::Person(u) => (Some(u), None),
        Who::Group(g) => (None, Some(g)),
    };
    let changed = crate::db::query(
        "UPDATE space_members SET role = $4 WHERE space_id = $1
           AND ((user_id = $2 AND $2 IS NOT NULL) OR (group_id = $3 AND $3 IS NOT NULL))",
    )
    .bind(id)
    .bind(user)
    .bind(group)
    .bind(role)
    .execute(ex)
    .await?;
    if changed.rows_affected() == 0 {
        crate::db::query(
            "INSERT INTO space_members (space_id, user_id, group_id, role) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(user)
        .bind(group)
        .bind(role)
        .execute(ex)
        .await?;
    }
    Ok(changed.rows_affected() == 0)
}

/// Removes the membership row `member` of space `id`.
pub async fn remove_member(ex: &impl Conn, id: i64, member: i64) -> Result<bool, crate::db::Error> {
    let n = crate::db::query("DELETE FROM space_members WHERE space_id = $1 AND id = $2")
        .bind(id)
        .bind(member)
        .execute(ex)
        .await?;
    Ok(n.rows_affected() > 0)
}

/// Makes a new account a member of every space that takes new accounts.
pub async fn join_defaults(ex: &impl Conn, user: i64) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO space_members (space_id, user_id, role)
         SELECT id, $1, default_role FROM spaces WHERE default_role IS NOT NULL",
    )
    .bind(user)
    .execute(ex)
    .await?;
    Ok(())
}

/// Where `user` last made a document: `Some(None)` their personal space,
/// `Some(Some(id))` a space they may still write in, `None` nothing yet (or a
/// space since removed or left).
pub async fn last_written(
    ex: &impl Conn,
    user: i64,
) -> Result<Option<Option<i64>>, crate::db::Error> {
    let row: Option<(Option<i64>,)> = crate::db::query_as(format!(
        "SELECT CASE WHEN u.last_space_id = 0 THEN NULL ELSE u.last_space_id END FROM users u
         WHERE u.id = $1 AND (u.last_space_id = 0 OR {} >= 2)",
        role_in("u.last_space_id", "$1")
    ))
    .bind(user)
    .fetch_optional(ex)
    .await?;
    Ok(row.map(|(s,)| s))
}

/// Remembers where `user` last made a document.
pub async fn set_last_written(
    ex: &impl Conn,
    user: i64,
    space: Option<i64>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE users SET last_space_id = $2 WHERE id = $1")
        .bind(user)
        .bind(space.unwrap_or(0))
        .execute(ex)
        .await?;
    Ok(())
}

/// The names of the people (not disabled) who may read document `seq`.
pub async fn readers(ex: &impl Conn, seq: i64) -> Result<Vec<String>, crate::db::Error> {
    let sql = format!(
        "SELECT u.username FROM users u, documents
         WHERE documents.seq = $1 AND u.disabled_at IS NULL AND {} >= 1 ORDER BY lower(u.username)",
        crate::db::documents::level("u.id")
    );
    crate::db::query_scalar(sql).bind(seq).fetch_all(ex).await
}

/// Moves document `seq` into space `to` (none: its owner's personal space).
pub async fn move_document(
    ex: &impl Conn,
    seq: i64,
    to: Option<i64>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE documents SET space_id = $2 WHERE seq = $1")
        .bind(seq)
        .bind(to)
        .execute(ex)
        .await?;
    Ok(())
}
