//! The audit log: who did what, when.

use std::collections::HashMap;

use sea_orm::{ActiveValue::Set, EntityTrait};

use super::entity::audit_log;
use crate::clock::now_ms;

/// Notes an event in the audit log, in the caller's transaction.
pub async fn audit(
    conn: &impl super::Conn,
    user_id: Option<i64>,
    event: &str,
    detail: &str,
) -> Result<(), super::Error> {
    let row = audit_log::ActiveModel {
        at: Set(now_ms()),
        user_id: Set(user_id),
        event: Set(event.to_owned()),
        detail: Set(detail.to_owned()),
        ..Default::default()
    };
    audit_log::Entity::insert(row)
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

/// The documents among `ids` (public ids) that still exist, each with its title
/// if `viewer` may read it, by the rule listings follow (`documents::visible`):
/// the log names a document only to those who may read it.
pub async fn document_titles(
    conn: &impl super::Conn,
    ids: &[&str],
    viewer: i64,
) -> Result<HashMap<String, Option<String>>, super::Error> {
    let mut found = HashMap::new();
    for chunk in ids.chunks(500) {
        let list: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT d.id, CASE WHEN {} THEN d.title END FROM documents d WHERE d.id IN ({})",
            super::documents::visible("$1"),
            list.join(",")
        );
        let mut q = super::query_as::<(String, Option<String>)>(sql).bind(viewer);
        for id in chunk {
            q = q.bind(*id);
        }
        found.extend(q.fetch_all(conn).await?);
    }
    Ok(found)
}
