//! The editor's unsaved text, one row per user and document.

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
    conn: &impl crate::db::Conn,
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
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<Option<Draft>, crate::db::Error> {
    crate::db::query_as(
        "SELECT title, body, base_version, updated_at FROM drafts
         WHERE doc_seq = $1 AND user_id = $2",
    )
    .bind(doc_seq)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

pub async fn remove(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM drafts WHERE doc_seq = $1 AND user_id = $2")
        .bind(doc_seq)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}
