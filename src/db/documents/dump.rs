//! Reading everything a viewer may see, with full history, for exports. Pages by
//! id so memory stays flat and the order never depends on how rows were inserted.

use std::collections::HashMap;

use super::access;
use super::revisions::decompress;

/// A stored text: hash, base hash, raw size, compressed data.
type TextRow = (Vec<u8>, Option<Vec<u8>>, i64, Vec<u8>);
/// A revision: rev, title, author, created_at, text hash.
type RevRow = (i64, String, Option<String>, i64, Vec<u8>, String, String);

#[derive(Debug, Clone)]
pub struct DumpDoc {
    pub seq: i64,
    pub id: String,
    pub title: String,
    pub body: String,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub owner: Option<String>,
    /// Its space's name; none: its owner's personal space.
    pub space: Option<String>,
    pub visibility: String,
    pub folder: String,
    /// A JSON array.
    pub tags: String,
    /// The file it was imported from.
    pub file_name: Option<String>,
}
crate::db::from_row!(DumpDoc {
    seq,
    id,
    title,
    body,
    version,
    created_at,
    updated_at,
    owner,
    space,
    visibility,
    folder,
    tags,
    file_name
});

#[derive(Debug, Clone)]
pub struct DumpRevision {
    pub rev: i64,
    pub title: String,
    pub author: Option<String>,
    pub created_at: i64,
    pub text: String,
    pub folder: String,
    /// A JSON array.
    pub tags: String,
}

/// How many live documents the viewer may read (what `page` will go through).
pub async fn count(
    ex: &impl crate::db::Conn,
    viewer: Option<i64>,
) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(format!(
        "SELECT count(*) FROM documents AS d WHERE d.deleted_at IS NULL AND {}",
        access::visible("$1")
    ))
    .bind(viewer)
    .fetch_one(ex)
    .await
}

/// Up to `limit` live documents the viewer may read with ids after `after`.
pub async fn page(
    ex: &impl crate::db::Conn,
    viewer: Option<i64>,
    after: &str,
    limit: i64,
) -> Result<Vec<DumpDoc>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT d.seq, d.id, d.title, d.body, d.version, d.created_at, d.updated_at,
                u.username AS owner, sp.name AS space, d.visibility, d.folder, d.tags, d.file_name
         FROM documents AS d LEFT JOIN users AS u ON u.id = d.owner_id
           LEFT JOIN spaces AS sp ON sp.id = d.space_id
         WHERE d.deleted_at IS NULL AND d.id > $2 AND {}
         ORDER BY d.id LIMIT $3",
        access::visible("$1")
    ))
    .bind(viewer)
    .bind(after)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Every revision of a document with its text, oldest first. Each stored text is
/// decompressed once, however many revisions share it or build on it.
pub async fn history(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
) -> Result<Vec<DumpRevision>, crate::db::Error> {
    let rows: Vec<TextRow> = crate::db::query_as(
        "SELECT hash, base, raw_size, data FROM revision_texts WHERE doc_seq = $1 ORDER BY depth",
    )
    .bind(doc_seq)
    .fetch_all(conn)
    .await?;
    let revs: Vec<RevRow> = crate::db::query_as(
        "SELECT rev, title, author, created_at, text_hash, folder, tags FROM revisions
         WHERE doc_seq = $1 ORDER BY rev",
    )
    .bind(doc_seq)
    .fetch_all(conn)
    .await?;
    // Ordered by depth, so every base is decoded before the texts built on it.
    let mut texts: HashMap<Vec<u8>, Vec<u8>> = HashMap::with_capacity(rows.len());
    for (hash, base, raw_size, data) in rows {
        let base_text = match &base {
            Some(b) => Some(texts.get(b).ok_or(crate::db::not_found())?.as_slice()),
            None => None,
        };
        let text = decompress(&data, base_text, raw_size as usize).map_err(crate::db::io_error)?;
        texts.insert(hash, text);
    }
    revs.into_iter()
        .map(|(rev, title, author, created_at, hash, folder, tags)| {
            let bytes = texts.get(&hash).ok_or(crate::db::not_found())?;
            let text =
                String::from_utf8(bytes.clone()).map_err(|e| crate::db::internal(e.to_string()))?;
            Ok(DumpRevision {
                rev,
                title,
                author,
                created_at,
                text,
                folder,
                tags,
            })
        })
        .collect()
}
