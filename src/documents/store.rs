//! SQL for documents. Each function takes a connection or the caller's transaction;
//! the caller decides what commits together.

use super::{DocId, RENDER_VERSION, Valid, access, cjk};

use super::row::COLUMNS;
pub use super::row::{Document, Summary};

pub async fn insert(
    conn: &impl crate::db::Conn,
    id: &DocId,
    doc: &Valid,
    html: &str,
    owner: Option<i64>,
    now: i64,
) -> Result<Document, crate::db::Error> {
    crate::db::query_as(format!(
        "INSERT INTO documents
             (id, title, size, body, html, render_version, version, created_at, updated_at, cjk,
              owner_id)
         VALUES ($1, $2, octet_length($3), $3, $4, $5, 1, $6, $6, $7, $8)
         RETURNING {COLUMNS}"
    ))
    .bind(id.as_str())
    .bind(&doc.title)
    .bind(&doc.body)
    .bind(html)
    .bind(RENDER_VERSION)
    .bind(now)
    .bind(cjk::index_text(&doc.title, &doc.body))
    .bind(owner)
    .fetch_one(conn)
    .await
}

/// Stores HTML rendered after the fact (an import that left rendering for later,
/// or a new renderer), unless the document changed meanwhile.
pub async fn set_rendered(
    conn: &impl crate::db::Conn,
    seq: i64,
    version: i64,
    html: &str,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "UPDATE documents SET html = $1, render_version = $2 WHERE seq = $3 AND version = $4",
    )
    .bind(html)
    .bind(RENDER_VERSION)
    .bind(seq)
    .bind(version)
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes the new text as the next version. The `version` guard makes a lost race
/// impossible even if a caller skipped the check.
pub async fn update(
    conn: &impl crate::db::Conn,
    current: &Document,
    doc: &Valid,
    html: &str,
    now: i64,
) -> Result<Document, crate::db::Error> {
    crate::db::query_as(format!(
        "UPDATE documents
         SET title = $1, size = octet_length($2), body = $2, html = $3, render_version = $4,
             version = version + 1, updated_at = CASE WHEN $5 > updated_at THEN $5 ELSE updated_at + 1 END, cjk = $8
         WHERE id = $6 AND version = $7
         RETURNING {COLUMNS}"
    ))
    .bind(&doc.title)
    .bind(&doc.body)
    .bind(html)
    .bind(RENDER_VERSION)
    .bind(now)
    .bind(&current.id)
    .bind(current.version)
    .bind(cjk::index_text(&doc.title, &doc.body))
    .fetch_one(conn)
    .await
}

/// Moves a document into (`Some(time)`) or out of (`None`) the trash. False when
/// there is no such document in the state it would leave.
pub async fn set_deleted(
    conn: &impl crate::db::Conn,
    id: &DocId,
    deleted_at: Option<i64>,
) -> Result<bool, crate::db::Error> {
    let done =
        match deleted_at {
            Some(t) => {
                crate::db::query(
                    "UPDATE documents SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL",
                )
                .bind(t)
                .bind(id.as_str())
                .execute(conn)
                .await?
            }
            None => crate::db::query(
                "UPDATE documents SET deleted_at = NULL WHERE id = $1 AND deleted_at IS NOT NULL",
            )
            .bind(id.as_str())
            .execute(conn)
            .await?,
        };
    Ok(done.rows_affected() == 1)
}

pub async fn purge_trash(
    conn: &impl crate::db::Conn,
    viewer: Option<i64>,
) -> Result<u64, crate::db::Error> {
    let done = crate::db::query(format!(
        "DELETE FROM documents AS d WHERE d.deleted_at IS NOT NULL AND {}",
        access::owned("$1")
    ))
    .bind(viewer)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Fetches one row more than a page so the caller knows whether another follows.
pub async fn list_live(
    ex: &impl crate::db::Conn,
    page: i64,
    size: i64,
    viewer: Option<i64>,
) -> Result<Vec<Summary>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT id, title, size, updated_at, deleted_at, owner_id, visibility, public_token, {}
         FROM documents AS d WHERE deleted_at IS NULL AND {}
         ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2",
        access::sharing_columns("d"),
        access::visible("$3")
    ))
    .bind(size + 1)
    .bind((page - 1) * size)
    .bind(viewer)
    .fetch_all(ex)
    .await
}

pub async fn list_trash(
    ex: &impl crate::db::Conn,
    page: i64,
    size: i64,
    viewer: Option<i64>,
) -> Result<Vec<Summary>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT id, title, size, updated_at, deleted_at
         FROM documents AS d WHERE deleted_at IS NOT NULL AND {}
         ORDER BY deleted_at DESC, id LIMIT $1 OFFSET $2",
        access::owned("$3")
    ))
    .bind(size + 1)
    .bind((page - 1) * size)
    .bind(viewer)
    .fetch_all(ex)
    .await
}
