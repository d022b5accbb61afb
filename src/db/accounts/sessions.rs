//! Sessions, stored by the SHA-256 of their cookie token; and the one-query page
//! view: the live session and the document it asks for, with its access.

use std::sync::LazyLock;

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::db::Conn;
use crate::db::entity::sessions::{self as session_rows, Column};

use super::User;
use crate::db::FromRow;
use crate::db::documents::Document;

/// A live session: its user, when it was last written as seen and when it began.
#[derive(Debug, Clone)]
pub struct Live {
    pub user: User,
    pub last_seen: i64,
    pub created_at: i64,
}

/// What makes a session live: `now` against its idle and absolute limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sessions last seen at or before this have ended.
    pub seen_after: i64,
    /// Sessions created at or before this have ended.
    pub created_after: i64,
}

pub async fn insert(
    conn: &impl Conn,
    token_hash: &[u8],
    user_id: i64,
    created_at: i64,
    now: i64,
) -> Result<(), crate::db::Error> {
    let row = session_rows::ActiveModel {
        token_hash: Set(token_hash.to_vec()),
        user_id: Set(user_id),
        created_at: Set(created_at),
        last_seen: Set(now),
    };
    session_rows::Entity::insert(row)
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

/// Live sessions: the token's hash is `$1`, the idle and absolute limits `$2`,
/// `$3`; with the person's unread notices counted (the header shows them).
static LIVE_SESSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT u.id AS viewer_id, u.username AS viewer_name,
        u.is_admin AS viewer_admin, s.last_seen AS viewer_seen,
        s.created_at AS viewer_since, {} AS viewer_unread
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = $1 AND u.disabled_at IS NULL
      AND s.last_seen > $2 AND s.created_at > $3",
        crate::db::notices::inbox::unread_column("u.id")
    )
});

fn live(row: &crate::db::Row) -> Result<Live, crate::db::Error> {
    Ok(Live {
        user: User {
            id: row.try_get("viewer_id")?,
            username: row.try_get("viewer_name")?,
            is_admin: row.try_get("viewer_admin")?,
            unread: row.try_get("viewer_unread")?,
        },
        last_seen: row.try_get("viewer_seen")?,
        created_at: row.try_get("viewer_since")?,
    })
}

/// The session with this token hash, if live and its account enabled.
pub async fn find_live(
    ex: &impl Conn,
    token_hash: &[u8],
    limits: Limits,
) -> Result<Option<Live>, crate::db::Error> {
    let row = crate::db::query(LIVE_SESSION.as_str())
        .bind(token_hash)
        .bind(limits.seen_after)
        .bind(limits.created_after)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(live).transpose()
}

/// `find_live` and the document `id` with the user's access to it, in one query:
/// a page view costs one round trip, not two. The document is `None` when no
/// such id exists.
pub async fn find_live_with_document(
    ex: &impl Conn,
    token_hash: &[u8],
    limits: Limits,
    id: &str,
) -> Result<Option<(Live, Option<Document>)>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT v.*, {} FROM ({}) AS v LEFT JOIN documents ON documents.id = $4",
            crate::db::documents::access_for("v.viewer_id"),
            *LIVE_SESSION
        )
    });
    let row = crate::db::query(SQL.as_str())
        .bind(token_hash)
        .bind(limits.seen_after)
        .bind(limits.created_after)
        .bind(id)
        .fetch_optional(ex)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let session = live(&row)?;
    let doc = match row.try_get::<Option<i64>>("seq")? {
        Some(_) => Some(Document::from_row(row)?),
        None => None,
    };
    Ok(Some((session, doc)))
}

/// Notes that a session was seen at `now`.
pub async fn touch(conn: &impl Conn, token_hash: &[u8], now: i64) -> Result<(), crate::db::Error> {
    session_rows::Entity::update_many()
        .col_expr(Column::LastSeen, Expr::value(now))
        .filter(Column::TokenHash.eq(token_hash.to_vec()))
        .exec(conn.sea())
        .await?;
    Ok(())
}

pub async fn delete(conn: &impl Conn, token_hash: &[u8]) -> Result<(), crate::db::Error> {
    session_rows::Entity::delete_many()
        .filter(Column::TokenHash.eq(token_hash.to_vec()))
        .exec(conn.sea())
        .await?;
    Ok(())
}
