//! The audit log: who did what, when.

use crate::clock::now_ms;

/// Notes an event in the audit log, in the caller's transaction.
pub async fn audit(
    conn: &impl super::Conn,
    user_id: Option<i64>,
    event: &str,
    detail: &str,
) -> Result<(), super::Error> {
    super::query("INSERT INTO audit_log (at, user_id, event, detail) VALUES ($1, $2, $3, $4)")
        .bind(now_ms())
        .bind(user_id)
        .bind(event)
        .bind(detail)
        .execute(conn)
        .await?;
    Ok(())
}
