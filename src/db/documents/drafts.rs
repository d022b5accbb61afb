//! The editor's unsaved text, one row per user and document.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::db::Conn;
use crate::db::entity::drafts::{self, Column};

#[derive(Debug, Clone)]
pub struct Draft {
    pub title: String,
    pub body: String,
    pub base_version: i64,
    pub updated_at: i64,
}
crate::db::from_row!(Draft {
    title,
    body,
    base_version,
    updated_at
});

/// Keeps (or replaces) the user's draft of a document.
pub async fn put(
    conn: &impl Conn,
    doc_seq: i64,
    user_id: i64,
    draft: &Draft,
) -> Result<Draft, crate::db::Error> {
    crate::db::query_as(
        "INSERT INTO drafts (doc_seq, user_id, title, body, base_version, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (doc_seq, user_id) DO UPDATE SET title = excluded.title,
             body = excluded.body, base_version = excluded.base_version,
             updated_at = excluded.updated_at
         RETURNING title, body, base_version, updated_at",
    )
    .bind(doc_seq)
    .bind(user_id)
    .bind(&draft.title)
    .bind(&draft.body)
    .bind(draft.base_version)
    .bind(draft.updated_at)
    .fetch_one(conn)
    .await
}

/// The user's own draft of a document, if any.
pub async fn find(
    ex: &impl Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<Option<Draft>, crate::db::Error> {
    let row = drafts::Entity::find_by_id((doc_seq, user_id))
        .one(ex.sea())
        .await?;
    Ok(row.map(|d| Draft {
        title: d.title,
        body: d.body,
        base_version: d.base_version,
        updated_at: d.updated_at,
    }))
}

pub async fn remove(conn: &impl Conn, doc_seq: i64, user_id: i64) -> Result<(), crate::db::Error> {
    drafts::Entity::delete_many()
        .filter(Column::DocSeq.eq(doc_seq))
        .filter(Column::UserId.eq(user_id))
        .exec(conn.sea())
        .await?;
    Ok(())
}
