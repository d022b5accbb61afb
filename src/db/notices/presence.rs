//! Who has a document open in an editor now.

use crate::db::{Conn, Error};

/// When `user` last said they have `doc_seq` open in an editor.
pub async fn last_seen(ex: &impl Conn, doc_seq: i64, user: i64) -> Result<Option<i64>, Error> {
    crate::db::query_scalar("SELECT seen_at FROM editing_now WHERE doc_seq = $1 AND user_id = $2")
        .bind(doc_seq)
        .bind(user)
        .fetch_optional(ex)
        .await
}

/// Notes that `user` has `doc_seq` open in an editor at `now`.
pub async fn seen(ex: &impl Conn, doc_seq: i64, user: i64, now: i64) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO editing_now (doc_seq, user_id, seen_at) VALUES ($1, $2, $3)
         ON CONFLICT (doc_seq, user_id) DO UPDATE SET seen_at = excluded.seen_at",
    )
    .bind(doc_seq)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The names of the others (enabled accounts) who had `doc_seq` open in an
/// editor since `since`, by name.
pub async fn others(
    ex: &impl Conn,
    doc_seq: i64,
    user: i64,
    since: i64,
) -> Result<Vec<String>, Error> {
    crate::db::query_scalar(
        "SELECT u.username FROM editing_now AS e JOIN users AS u ON u.id = e.user_id
         WHERE e.doc_seq = $1 AND e.user_id <> $2 AND e.seen_at >= $3 AND u.disabled_at IS NULL
         ORDER BY u.username",
    )
    .bind(doc_seq)
    .bind(user)
    .bind(since)
    .fetch_all(ex)
    .await
}

/// Forgets editors not seen since `before`.
pub async fn forget(ex: &impl Conn, before: i64) -> Result<u64, Error> {
    let done = crate::db::query("DELETE FROM editing_now WHERE seen_at < $1")
        .bind(before)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}
