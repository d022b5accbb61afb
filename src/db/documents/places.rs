//! The folders and tags of the documents a viewer may read, with how many
//! documents each holds: the list's folder tree and tag list, the editor's
//! folder suggestions. Only live documents count.

use super::access;
use super::listing::InSpace;
use crate::db::Conn;

/// Each folder that directly holds a document the viewer may read, with how
/// many it holds, by path.
pub async fn folders(
    ex: &impl Conn,
    viewer: Option<i64>,
    space: Option<InSpace>,
) -> Result<Vec<(String, i64)>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT d.folder, count(*) FROM documents AS d
         WHERE d.deleted_at IS NULL AND {}{} GROUP BY d.folder ORDER BY d.folder",
        access::visible("$1"),
        in_space(space, "$1")
    ))
    .bind(viewer)
    .fetch_all(ex)
    .await
}

/// Each tag of the documents the viewer may read, with how many carry it:
/// the most used first, at most `limit`.
pub async fn tags(
    ex: &impl Conn,
    viewer: Option<i64>,
    limit: i64,
    space: Option<InSpace>,
) -> Result<Vec<(String, i64)>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT t.tag, count(*) AS n FROM document_tags AS t
         JOIN documents AS d ON d.seq = t.doc_seq
         WHERE d.deleted_at IS NULL AND {}{}
         GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT $2",
        access::visible("$1"),
        in_space(space, "$1")
    ))
    .bind(viewer)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A further condition keeping documents `d` in `space`, if one is given.
fn in_space(space: Option<InSpace>, viewer: &str) -> String {
    space.map_or_else(String::new, |s| format!(" AND {}", s.condition(viewer)))
}

/// `column` is the folder bound as `folder` or a folder under it (`under`,
/// bound as the folder with a slash): the one condition the list, the search
/// and a folder's rename share.
pub fn in_folder(column: &str, folder: &str, under: &str) -> String {
    format!("({column} = {folder} OR substr({column}, 1, length(CAST({under} AS TEXT))) = {under})")
}

/// The document `d` carries the tag bound as `tag`.
pub fn has_tag(tag: &str) -> String {
    format!("EXISTS (SELECT 1 FROM document_tags AS t WHERE t.tag = {tag} AND t.doc_seq = d.seq)")
}

/// The ids of the live documents in `folder` or a folder under it (`under`
/// is `folder/`) that `viewer` may read, oldest first.
pub async fn readable_in(
    ex: &impl Conn,
    viewer: Option<i64>,
    (folder, under): (&str, &str),
) -> Result<Vec<String>, crate::db::Error> {
    crate::db::query_scalar(format!(
        "SELECT id FROM documents
         WHERE deleted_at IS NULL AND {} AND {} >= 1
         ORDER BY seq",
        in_folder("folder", "$2", "$3"),
        access::level("$1")
    ))
    .bind(viewer)
    .bind(folder)
    .bind(under)
    .fetch_all(ex)
    .await
}

/// A live document in `folder` or a folder under it (`under` is `folder/`)
/// that `viewer` may edit: its seq, version and folder.
pub async fn editable_in(
    ex: &impl Conn,
    viewer: Option<i64>,
    (folder, under): (&str, &str),
) -> Result<Vec<(i64, i64, String)>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT seq, version, folder FROM documents
         WHERE deleted_at IS NULL AND {} AND {} >= 2
         ORDER BY seq",
        in_folder("folder", "$2", "$3"),
        access::level("$1")
    ))
    .bind(viewer)
    .bind(folder)
    .bind(under)
    .fetch_all(ex)
    .await
}

/// Moves document `seq`, still at `version`, to `folder` as its next version,
/// recorded as a revision with the same text by `author`. False when the
/// document moved on meanwhile.
pub async fn move_to(
    ex: &impl Conn,
    (seq, version): (i64, i64),
    folder: &str,
    (author, now): (Option<&str>, i64),
) -> Result<bool, crate::db::Error> {
    let moved = crate::db::query(
        "UPDATE documents SET folder = $1, version = version + 1,
             updated_at = CASE WHEN $4 > updated_at THEN $4 ELSE updated_at + 1 END
         WHERE seq = $2 AND version = $3",
    )
    .bind(folder)
    .bind(seq)
    .bind(version)
    .bind(now)
    .execute(ex)
    .await?;
    if moved.rows_affected() != 1 {
        return Ok(false);
    }
    crate::db::query(
        "INSERT INTO revisions
             (doc_seq, rev, title, text_hash, size, added, removed, author, created_at, folder, tags)
         SELECT r.doc_seq, r.rev + 1, r.title, r.text_hash, r.size, 0, 0, $3, d.updated_at,
                d.folder, d.tags
         FROM revisions AS r JOIN documents AS d ON d.seq = r.doc_seq
         WHERE r.doc_seq = $1 AND r.rev = $2",
    )
    .bind(seq)
    .bind(version)
    .bind(author)
    .execute(ex)
    .await?;
    Ok(true)
}
