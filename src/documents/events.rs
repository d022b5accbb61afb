//! A document's events beyond its saves and comments, queued in the
//! transaction that makes them for the notifier to tell webhooks of:
//! trashed, restored, moved, deleted for good (with what it was, as it is gone).

use serde_json::json;

use crate::clock::now_ms;
use crate::db::notices::queue;
use crate::db::{Conn, Error};

/// Queues `event` ("document.trashed", …) of document `doc_seq`, by `actor`.
pub async fn happened(
    ex: &impl Conn,
    doc_seq: i64,
    event: &str,
    actor: Option<i64>,
) -> Result<(), Error> {
    let detail = json!({ "event": event }).to_string();
    queue::event(ex, Some(doc_seq), &detail, actor, now_ms()).await
}

/// Queues "deleted for good" of each document the trash held, by `actor`.
pub async fn deleted(
    ex: &impl Conn,
    gone: &[crate::db::documents::Gone],
    actor: Option<i64>,
) -> Result<(), Error> {
    let now = now_ms();
    for g in gone {
        let detail = json!({
            "event": "document.deleted",
            "gone": {"id": g.id, "title": g.title, "space_id": g.space_id, "owner_id": g.owner_id},
        })
        .to_string();
        queue::event(ex, None, &detail, actor, now).await?;
    }
    Ok(())
}
