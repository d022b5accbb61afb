//! Pages made by an older renderer, found for the pass that redoes them in
//! the background after an upgrade (`documents::rerender`). `quire_settings`
//! remembers the renderer the last finished pass made every page with, so
//! later starts read nothing.

use crate::db::Conn;

const KEY: &str = "rendered_with";

/// The renderer every page was made with when the last pass finished.
pub async fn rendered_with(ex: &impl Conn) -> Result<Option<i64>, crate::db::Error> {
    crate::db::query_scalar("SELECT value FROM quire_settings WHERE key = $1")
        .bind(KEY)
        .fetch_optional(ex)
        .await
}

pub async fn set_rendered_with(ex: &impl Conn, version: i64) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO quire_settings (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(KEY)
    .bind(version)
    .execute(ex)
    .await?;
    Ok(())
}

/// Up to `limit` live documents after `seq` whose page another renderer
/// made than `version`: seq, version and text each, by seq.
pub async fn stale(
    ex: &impl Conn,
    version: i64,
    after: i64,
    limit: i64,
) -> Result<Vec<(i64, String, i64, String)>, crate::db::Error> {
    crate::db::query_as(
        "SELECT seq, id, version, body FROM documents
         WHERE seq > $2 AND render_version <> $1 AND deleted_at IS NULL
         ORDER BY seq LIMIT $3",
    )
    .bind(version)
    .bind(after)
    .bind(limit)
    .fetch_all(ex)
    .await
}
