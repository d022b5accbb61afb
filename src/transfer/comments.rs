//! A document's comments in an export: `comments/<id>.json`, each comment with
//! its thread, author, times and resolution, so an import puts the discussion
//! back as it was. Written and read here, for both directions.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{format_time, parse_time};
use crate::db::comments::CommentRow;

/// The file of document `id`'s comments in an export.
pub fn path_of(id: &str) -> String {
    format!("comments/{id}.json")
}

/// The document id a `comments/<id>.json` path names.
pub fn id_of(path: &str) -> Option<&str> {
    let id = path.strip_prefix("comments/")?.strip_suffix(".json")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CommentsFile {
    pub comments: Vec<CommentOut>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CommentOut {
    /// Its number in this file (a reply names its thread's by it).
    pub id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<i64>,
    pub author: String,
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edited: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_by: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}

/// One document's comments as its file's bytes.
pub fn write(rows: &[CommentRow]) -> anyhow::Result<Vec<u8>> {
    let comments = rows
        .iter()
        .map(|c| CommentOut {
            id: c.id,
            parent: c.parent_id,
            author: c.author.clone(),
            body: c.body.clone(),
            quote: c.quote.clone(),
            created: format_time(c.created_at),
            edited: c.edited_at.map(format_time),
            resolved: c.resolved_at.map(format_time),
            resolved_by: c.resolved_by.clone(),
            deleted: c.deleted_at.is_some(),
        })
        .collect();
    let mut out = serde_json::to_vec_pretty(&CommentsFile { comments })?;
    out.push(b'\n');
    Ok(out)
}

/// A comments file read back as rows for document `doc_seq`, threads before
/// their replies, each rendered again; `parent_id` still names the file's own
/// numbers (the caller maps them to the new ids as it writes).
pub fn read(bytes: &[u8], doc_seq: i64) -> Result<Vec<CommentRow>, String> {
    let file: CommentsFile = serde_json::from_slice(bytes)
        .map_err(|e| format!("its comments file is not readable: {e}"))?;
    let now = crate::clock::now_ms();
    let time = |t: &Option<String>| t.as_deref().and_then(parse_time);
    let mut rows: Vec<CommentRow> = file
        .comments
        .into_iter()
        .map(|c| {
            let body = crate::documents::without_nul(&c.body).into_owned();
            CommentRow {
                id: c.id,
                doc_seq,
                parent_id: c.parent,
                author_id: None,
                author: c.author,
                html: if c.deleted {
                    String::new()
                } else {
                    crate::documents::render_markdown(&body)
                },
                body,
                quote: c.quote,
                created_at: parse_time(&c.created).unwrap_or(now),
                edited_at: time(&c.edited),
                resolved_at: time(&c.resolved),
                resolved_by: c.resolved_by,
                deleted_at: c.deleted.then_some(now),
            }
        })
        .collect();
    rows.sort_by_key(|c| (c.parent_id.is_some(), c.id));
    Ok(rows)
}

/// Writes rows read by `read` under their document, a reply under its
/// thread's new id (one whose thread is missing becomes a thread).
pub async fn restore(
    ex: &impl crate::db::Conn,
    rows: Vec<CommentRow>,
) -> Result<usize, crate::db::Error> {
    let mut ids: HashMap<i64, i64> = HashMap::new();
    let n = rows.len();
    for mut row in rows {
        let old = row.id;
        row.parent_id = row.parent_id.and_then(|p| ids.get(&p).copied());
        let new = crate::db::comments::restore(ex, &row).await?;
        ids.insert(old, new);
    }
    Ok(n)
}
