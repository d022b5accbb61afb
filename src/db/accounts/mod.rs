//! The accounts aggregate: users, sessions, API tokens, sign-in failures and the
//! audit log's readers. The domain (`crate::accounts`) decides who may sign in
//! and what each change allows; this stores.

pub mod failures;
pub mod sessions;
pub mod tokens;

/// A signed-in person, as every request sees them.
#[derive(Debug, Clone)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub is_admin: bool,
}
crate::db::from_row!(User {
    id,
    username,
    is_admin
});

/// A user as the administrator's list shows them.
#[derive(Debug, Clone)]
pub struct UserRow {
    pub id: i64,
    pub username: String,
    pub is_admin: bool,
    pub disabled_at: Option<i64>,
    pub created_at: i64,
}
crate::db::from_row!(UserRow {
    id,
    username,
    is_admin,
    disabled_at,
    created_at
});

/// A user with what signing in checks.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub user: User,
    pub password_hash: String,
    pub disabled_at: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct AuditRow {
    pub at: i64,
    pub username: Option<String>,
    pub event: String,
    pub detail: String,
}
crate::db::from_row!(AuditRow {
    at,
    username,
    event,
    detail
});

/// The id of the user called `name` (case-insensitive).
pub async fn id_by_name(
    ex: &impl crate::db::Conn,
    name: &str,
) -> Result<Option<i64>, crate::db::Error> {
    crate::db::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// A new user; a taken name is a unique violation (`db::is_unique_violation`).
pub async fn insert(
    conn: &impl crate::db::Conn,
    username: &str,
    password_hash: &str,
    is_admin: bool,
    now: i64,
) -> Result<User, crate::db::Error> {
    crate::db::query_as(
        "INSERT INTO users (username, password_hash, is_admin, created_at)
         VALUES ($1, $2, $3, $4) RETURNING id, username, is_admin",
    )
    .bind(username)
    .bind(password_hash)
    .bind(i64::from(is_admin))
    .bind(now)
    .fetch_one(conn)
    .await
}

pub async fn count(ex: &impl crate::db::Conn) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar("SELECT count(*) FROM users")
        .fetch_one(ex)
        .await
}

/// The user called `name` (case-insensitive) with their password hash.
pub async fn credentials(
    ex: &impl crate::db::Conn,
    name: &str,
) -> Result<Option<Credentials>, crate::db::Error> {
    let row: Option<(i64, String, bool, String, Option<i64>)> = crate::db::query_as(
        "SELECT id, username, is_admin, password_hash, disabled_at FROM users
         WHERE lower(username) = lower($1)",
    )
    .bind(name)
    .fetch_optional(ex)
    .await?;
    Ok(row.map(
        |(id, username, is_admin, password_hash, disabled_at)| Credentials {
            user: User {
                id,
                username,
                is_admin,
            },
            password_hash,
            disabled_at,
        },
    ))
}

pub async fn password_hash(ex: &impl crate::db::Conn, id: i64) -> Result<String, crate::db::Error> {
    crate::db::query_scalar("SELECT password_hash FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(ex)
        .await
}

pub async fn list(ex: &impl crate::db::Conn) -> Result<Vec<UserRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT id, username, is_admin, disabled_at, created_at FROM users ORDER BY username",
    )
    .fetch_all(ex)
    .await
}

/// The names of the users with these ids (those that exist).
pub async fn names(
    ex: &impl crate::db::Conn,
    ids: [i64; 2],
) -> Result<Vec<(i64, String)>, crate::db::Error> {
    crate::db::query_as("SELECT id, username FROM users WHERE id = $1 OR id = $2")
        .bind(ids[0])
        .bind(ids[1])
        .fetch_all(ex)
        .await
}

/// Every user's id and name (imports map owners by name).
pub async fn all_names(ex: &impl crate::db::Conn) -> Result<Vec<(i64, String)>, crate::db::Error> {
    crate::db::query_as("SELECT id, username FROM users")
        .fetch_all(ex)
        .await
}

/// The first administrator's id and name.
pub async fn first_admin(
    ex: &impl crate::db::Conn,
) -> Result<Option<(i64, String)>, crate::db::Error> {
    crate::db::query_as("SELECT id, username FROM users WHERE is_admin = 1 ORDER BY id LIMIT 1")
        .fetch_optional(ex)
        .await
}

/// Sets the password and ends every session of the account except the one whose
/// token hash is `keep`.
pub async fn set_password(
    conn: &impl crate::db::Conn,
    id: i64,
    password_hash: &str,
    keep: Option<&[u8]>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(password_hash)
        .bind(id)
        .execute(conn)
        .await?;
    crate::db::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2")
        .bind(id)
        .bind(keep)
        .execute(conn)
        .await?;
    Ok(())
}

/// Disables (`Some(time)`: every session ends too) or enables (`None`) an account.
pub async fn set_disabled(
    conn: &impl crate::db::Conn,
    id: i64,
    at: Option<i64>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE users SET disabled_at = $1 WHERE id = $2")
        .bind(at)
        .bind(id)
        .execute(conn)
        .await?;
    if at.is_some() {
        crate::db::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(id)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// False when there is no such user; a taken name is a unique violation.
pub async fn rename(
    conn: &impl crate::db::Conn,
    id: i64,
    name: &str,
) -> Result<bool, crate::db::Error> {
    let done = crate::db::query("UPDATE users SET username = $1 WHERE id = $2")
        .bind(name)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn set_admin(
    conn: &impl crate::db::Conn,
    id: i64,
    is_admin: bool,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE users SET is_admin = $1 WHERE id = $2")
        .bind(i64::from(is_admin))
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes a user; their documents (the trash too) now belong to `heir`, and
/// shares with the heir of what they now own go. Drafts, sessions and tokens go
/// with the user (foreign keys). How many documents moved.
pub async fn delete_to_heir(
    conn: &impl crate::db::Conn,
    id: i64,
    heir: i64,
) -> Result<u64, crate::db::Error> {
    let moved = crate::db::query("UPDATE documents SET owner_id = $1 WHERE owner_id = $2")
        .bind(heir)
        .bind(id)
        .execute(conn)
        .await?
        .rows_affected();
    // The heir owns these now: a share with them would only repeat that.
    crate::db::query(
        "DELETE FROM document_shares WHERE user_id = $1
         AND doc_seq IN (SELECT seq FROM documents WHERE owner_id = $1)",
    )
    .bind(heir)
    .execute(conn)
    .await?;
    crate::db::query("DELETE FROM users WHERE id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(moved)
}

/// The newest `limit` entries of the audit log, with who did each.
pub async fn audit_log(
    ex: &impl crate::db::Conn,
    limit: i64,
) -> Result<Vec<AuditRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT a.at, u.username, a.event, a.detail FROM audit_log a
         LEFT JOIN users u ON u.id = a.user_id ORDER BY a.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(ex)
    .await
}
