//! A new document's unsaved text, one row per person and editor page (its key).

use crate::db::Conn;

#[derive(Debug, Clone)]
pub struct NewDraft {
    pub key: String,
    pub title: String,
    pub body: String,
    pub folder: String,
    pub tags: String,
    pub updated_at: i64,
}
crate::db::from_row!(NewDraft {
    key,
    title,
    body,
    folder,
    tags,
    updated_at
});

const COLUMNS: &str = "key, title, body, folder, tags, updated_at";

/// Keeps (or replaces) the person's draft under its key.
pub async fn put(conn: &impl Conn, user_id: i64, draft: &NewDraft) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO new_drafts (user_id, key, title, body, folder, tags, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (user_id, key) DO UPDATE SET title = excluded.title,
             body = excluded.body, folder = excluded.folder, tags = excluded.tags,
             updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(&draft.key)
    .bind(&draft.title)
    .bind(&draft.body)
    .bind(&draft.folder)
    .bind(&draft.tags)
    .bind(draft.updated_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The person's draft under `key`, if any.
pub async fn find(
    conn: &impl Conn,
    user_id: i64,
    key: &str,
) -> Result<Option<NewDraft>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT {COLUMNS} FROM new_drafts WHERE user_id = $1 AND key = $2"
    ))
    .bind(user_id)
    .bind(key)
    .fetch_optional(conn)
    .await
}

/// The person's drafts, the newest first, at most `limit`.
pub async fn list(
    conn: &impl Conn,
    user_id: i64,
    limit: i64,
) -> Result<Vec<NewDraft>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT {COLUMNS} FROM new_drafts WHERE user_id = $1
         ORDER BY updated_at DESC, key LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Removes the person's draft under `key`; true when there was one.
pub async fn remove(conn: &impl Conn, user_id: i64, key: &str) -> Result<bool, crate::db::Error> {
    let done = crate::db::query("DELETE FROM new_drafts WHERE user_id = $1 AND key = $2")
        .bind(user_id)
        .bind(key)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
