//! The audit log: who did what, when.

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
