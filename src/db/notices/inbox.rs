//! A person's notices, as they may see them now: each is shown only while its
//! document (or space) is one they may read, so a notice never names what its
//! reader lost access to after it was made.

use std::sync::LazyLock;

use super::readable;
use crate::db::{Conn, Error};

/// One notice as the inbox lists it.
#[derive(Debug, Clone)]
pub struct NoticeRow {
    pub id: i64,
    pub kind: String,
    pub actor: Option<String>,
    pub first_rev: Option<i64>,
    pub last_rev: Option<i64>,
    pub count: i64,
    pub updated_at: i64,
    pub read_at: Option<i64>,
    pub doc_id: Option<String>,
    pub doc_title: Option<String>,
    pub space_id: Option<i64>,
    pub space_name: Option<String>,
}
crate::db::from_row!(NoticeRow {
    id,
    kind,
    actor,
    first_rev,
    last_rev,
    count,
    updated_at,
    read_at,
    doc_id,
    doc_title,
    space_id,
    space_name
});

/// The person `$1`'s notices about what they may read now, unread first, then
/// newest first; at most `$2`.
static LIST: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT n.id, n.kind, n.actor, n.first_rev, n.last_rev, n.count, n.updated_at, n.read_at,
                d.id AS doc_id, d.title AS doc_title, sp.id AS space_id, sp.name AS space_name
         FROM notices AS n
         LEFT JOIN documents AS d ON d.seq = n.doc_seq
         LEFT JOIN spaces AS sp ON sp.id = n.space_id
         WHERE n.user_id = $1 AND {}
         ORDER BY CASE WHEN n.read_at IS NULL THEN 0 ELSE 1 END, n.updated_at DESC, n.id DESC
         LIMIT $2",
        readable("$1")
    )
});

pub async fn list(ex: &impl Conn, user: i64, most: i64) -> Result<Vec<NoticeRow>, Error> {
    crate::db::query_as::<NoticeRow>(LIST.as_str())
        .bind(user)
        .bind(most)
        .fetch_all(ex)
        .await
}

/// One of the person's notices, if it is about something they may read now.
pub async fn find(ex: &impl Conn, user: i64, id: i64) -> Result<Option<NoticeRow>, Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        LIST.replace(
            "WHERE n.user_id = $1 AND",
            "WHERE n.id = $2 AND n.user_id = $1 AND",
        )
        .replace("LIMIT $2", "LIMIT 1")
    });
    crate::db::query_as::<NoticeRow>(SQL.as_str())
        .bind(user)
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// `(SELECT …)`: how many unread notices the person `viewer` (an expression)
/// has about what they may read now; a column of the session's lookup, so the
/// header's count costs no second query.
pub(crate) fn unread_column(viewer: &str) -> String {
    format!(
        "(SELECT count(*) FROM notices AS n LEFT JOIN documents AS d ON d.seq = n.doc_seq
          WHERE n.user_id = {viewer} AND n.read_at IS NULL AND {})",
        readable(viewer)
    )
}

/// Marks one of the person's notices read; false if it was not theirs or
/// already read.
pub async fn mark_read(ex: &impl Conn, user: i64, id: i64, now: i64) -> Result<bool, Error> {
    let done = crate::db::query(
        "UPDATE notices SET read_at = $3 WHERE id = $1 AND user_id = $2 AND read_at IS NULL",
    )
    .bind(id)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Marks every unread notice of the person's read; how many.
pub async fn mark_all_read(ex: &impl Conn, user: i64, now: i64) -> Result<u64, Error> {
    let done =
        crate::db::query("UPDATE notices SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL")
            .bind(user)
            .bind(now)
            .execute(ex)
            .await?;
    Ok(done.rows_affected())
}

/// Read notices older than `before` go (the inbox keeps a few months).
pub async fn forget_read(ex: &impl Conn, before: i64) -> Result<u64, Error> {
    let done = crate::db::query("DELETE FROM notices WHERE read_at IS NOT NULL AND read_at < $1")
        .bind(before)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}
