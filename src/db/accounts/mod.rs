//! The accounts aggregate: users, sessions, API tokens, sign-in failures and the
//! audit log's readers. The domain (`crate::accounts`) decides who may sign in
//! and what each change allows; this stores.

pub mod failures;
pub mod identities;
pub mod sessions;
pub mod tokens;

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::db::Conn;
use crate::db::entity::{sessions as session_rows, users};
use users::Column;

fn user_of(m: users::Model) -> User {
    User {
        id: m.id,
        username: m.username,
        is_admin: m.is_admin != 0,
        unread: 0,
    }
}

/// A signed-in person, as every request sees them.
#[derive(Debug, Clone)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub is_admin: bool,
    /// Unread notices in their inbox about what they may read, where the
    /// session's lookup counted them (0 elsewhere).
    pub unread: i64,
}
crate::db::from_row!(User {
    id,
    username,
    is_admin
} defaults {
    unread
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
pub async fn id_by_name(ex: &impl Conn, name: &str) -> Result<Option<i64>, crate::db::Error> {
    crate::db::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// A new user; a taken name is a unique violation (`db::is_unique_violation`).
pub async fn insert(
    conn: &impl Conn,
    username: &str,
    password_hash: &str,
    is_admin: bool,
    now: i64,
) -> Result<User, crate::db::Error> {
    let row = users::ActiveModel {
        username: Set(username.to_owned()),
        password_hash: Set(password_hash.to_owned()),
        is_admin: Set(i64::from(is_admin)),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(conn.sea())
    .await?;
    crate::db::teams::spaces::join_defaults(conn, row.id).await?;
    Ok(user_of(row))
}

pub async fn count(ex: &impl Conn) -> Result<i64, crate::db::Error> {
    let n = users::Entity::find().count(ex.sea()).await?;
    Ok(n as i64)
}

/// The user called `name` (case-insensitive) with their password hash.
pub async fn credentials(
    ex: &impl Conn,
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
                unread: 0,
            },
            password_hash,
            disabled_at,
        },
    ))
}

pub async fn password_hash(ex: &impl Conn, id: i64) -> Result<String, crate::db::Error> {
    users::Entity::find_by_id(id)
        .select_only()
        .column(Column::PasswordHash)
        .into_tuple::<String>()
        .one(ex.sea())
        .await?
        .ok_or_else(crate::db::not_found)
}

pub async fn list(ex: &impl Conn) -> Result<Vec<UserRow>, crate::db::Error> {
    let rows = users::Entity::find()
        .order_by_asc(Column::Username)
        .all(ex.sea())
        .await?;
    Ok(rows
        .into_iter()
        .map(|u| UserRow {
            id: u.id,
            username: u.username,
            is_admin: u.is_admin != 0,
            disabled_at: u.disabled_at,
            created_at: u.created_at,
        })
        .collect())
}

/// The names of the users with these ids (those that exist).
pub async fn names(ex: &impl Conn, ids: [i64; 2]) -> Result<Vec<(i64, String)>, crate::db::Error> {
    users::Entity::find()
        .select_only()
        .columns([Column::Id, Column::Username])
        .filter(Column::Id.is_in(ids))
        .into_tuple()
        .all(ex.sea())
        .await
}

/// Every user's id and name (imports map owners by name).
pub async fn all_names(ex: &impl Conn) -> Result<Vec<(i64, String)>, crate::db::Error> {
    users::Entity::find()
        .select_only()
        .columns([Column::Id, Column::Username])
        .into_tuple()
        .all(ex.sea())
        .await
}

/// The first administrator's id and name.
pub async fn first_admin(ex: &impl Conn) -> Result<Option<(i64, String)>, crate::db::Error> {
    users::Entity::find()
        .select_only()
        .columns([Column::Id, Column::Username])
        .filter(Column::IsAdmin.eq(1))
        .order_by_asc(Column::Id)
        .into_tuple()
        .one(ex.sea())
        .await
}

/// Sets the password and ends every session of the account except the one whose
/// token hash is `keep`.
pub async fn set_password(
    conn: &impl Conn,
    id: i64,
    password_hash: &str,
    keep: Option<&[u8]>,
) -> Result<(), crate::db::Error> {
    users::Entity::update_many()
        .col_expr(Column::PasswordHash, Expr::value(password_hash))
        .filter(Column::Id.eq(id))
        .exec(conn.sea())
        .await?;
    let mut ended = session_rows::Entity::delete_many().filter(session_rows::Column::UserId.eq(id));
    if let Some(keep) = keep {
        ended = ended.filter(session_rows::Column::TokenHash.ne(keep.to_vec()));
    }
    ended.exec(conn.sea()).await?;
    Ok(())
}

/// Disables (`Some(time)`: every session ends too) or enables (`None`) an account.
pub async fn set_disabled(
    conn: &impl Conn,
    id: i64,
    at: Option<i64>,
) -> Result<(), crate::db::Error> {
    users::Entity::update_many()
        .col_expr(Column::DisabledAt, Expr::value(at))
        .filter(Column::Id.eq(id))
        .exec(conn.sea())
        .await?;
    if at.is_some() {
        session_rows::Entity::delete_many()
            .filter(session_rows::Column::UserId.eq(id))
            .exec(conn.sea())
            .await?;
    }
    Ok(())
}

/// False when there is no such user; a taken name is a unique violation.
pub async fn rename(conn: &impl Conn, id: i64, name: &str) -> Result<bool, crate::db::Error> {
    let done = users::Entity::update_many()
        .col_expr(Column::Username, Expr::value(name))
        .filter(Column::Id.eq(id))
        .exec(conn.sea())
        .await?;
    Ok(done.rows_affected == 1)
}

/// The ids of the active administrators (admin rights, not disabled), held for
/// the rest of the caller's write transaction, so what the caller decides from
/// them still holds when it commits. SQLite: the write transaction (`BEGIN
/// IMMEDIATE`) already keeps every other writer out. PostgreSQL: quire's write
/// transactions take an exclusive advisory lock (`Db::begin_write`), but the
/// rows are locked `FOR UPDATE` too, so the answer does not rest on every
/// writer of `users` taking that lock. A plain count in a guarded `UPDATE`
/// would not do under READ COMMITTED: two transactions changing different
/// admins each count the other as still there. With the rows locked, the
/// second waits for the first to commit and then reads the admins as it left
/// them (a demoted or disabled admin no longer matches). Locked in id order,
/// so two such transactions cannot deadlock.
pub async fn active_admins_locked(conn: &impl Conn) -> Result<Vec<i64>, crate::db::Error> {
    let sql = if crate::db::is_postgres(conn) {
        "SELECT id FROM users WHERE is_admin = 1 AND disabled_at IS NULL ORDER BY id FOR UPDATE"
    } else {
        "SELECT id FROM users WHERE is_admin = 1 AND disabled_at IS NULL ORDER BY id"
    };
    crate::db::query_scalar(sql).fetch_all(conn).await
}

pub async fn set_admin(conn: &impl Conn, id: i64, is_admin: bool) -> Result<(), crate::db::Error> {
    users::Entity::update_many()
        .col_expr(Column::IsAdmin, Expr::value(i64::from(is_admin)))
        .filter(Column::Id.eq(id))
        .exec(conn.sea())
        .await?;
    Ok(())
}

/// Deletes a user; their documents (the trash too) now belong to `heir`, and
/// shares with the heir of what they now own go. Drafts, sessions and tokens go
/// with the user (foreign keys). How many documents moved.
pub async fn delete_to_heir(conn: &impl Conn, id: i64, heir: i64) -> Result<u64, crate::db::Error> {
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
pub async fn audit_log(ex: &impl Conn, limit: i64) -> Result<Vec<AuditRow>, crate::db::Error> {
    crate::db::query_as(
        "SELECT a.at, u.username, a.event, a.detail FROM audit_log a
         LEFT JOIN users u ON u.id = a.user_id ORDER BY a.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(ex)
    .await
}
