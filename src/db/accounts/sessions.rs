//! Sessions, stored by the SHA-256 of their cookie token; and the one-query page
//! view: the live session and the document it asks for, with its access.

use std::sync::LazyLock;

use super::User;
use crate::db::FromRow;
use crate::db::documents::Document;

/// A live session: its user and when it was last written as seen.
#[derive(Debug, Clone)]
pub struct Live {
    pub user: User,
    pub last_seen: i64,
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
    conn: &impl crate::db::Conn,
    token_hash: &[u8],
    user_id: i64,
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, last_seen) VALUES ($1, $2, $3, $3)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Live sessions: the token's hash is `$1`, the idle and absolute limits `$2`, `$3`.
const LIVE_SESSION: &str = "SELECT u.id AS viewer_id, u.username AS viewer_name,
        u.is_admin AS viewer_admin, s.last_seen AS viewer_seen
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = $1 AND u.disabled_at IS NULL
      AND s.last_seen > $2 AND s.created_at > $3";

fn live(row: &crate::db::Row) -> Result<Live, crate::db::Error> {
    Ok(Live {
        user: User {
            id: row.try_get("viewer_id")?,
            username: row.try_get("viewer_name")?,
            is_admin: row.try_get("viewer_admin")?,
        },
        last_seen: row.try_get("viewer_seen")?,
    })
}

/// The session with this token hash, if live and its account enabled.
pub async fn find_live(
    ex: &impl crate::db::Conn,
    token_hash: &[u8],
    limits: Limits,
) -> Result<Option<Live>, crate::db::Error> {
    let row = crate::db::query(LIVE_SESSION)
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
    ex: &impl crate::db::Conn,
    token_hash: &[u8],
    limits: Limits,
    id: &str,
) -> Result<Option<(Live, Option<Document>)>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT v.*, {} FROM ({LIVE_SESSION}) AS v LEFT JOIN documents ON documents.id = $4",
            crate::db::documents::access_for("v.viewer_id")
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
pub async fn touch(
    conn: &impl crate::db::Conn,
    token_hash: &[u8],
    now: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE sessions SET last_seen = $1 WHERE token_hash = $2")
        .bind(now)
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn delete(
    conn: &impl crate::db::Conn,
    token_hash: &[u8],
) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}
