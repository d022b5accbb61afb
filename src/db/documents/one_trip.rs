//! A save in one trip to SQLite. Each statement sent through the pool is a
//! hand-off to SQLite's worker thread and back; a save was three or four (the
//! guarded `UPDATE`, the revision's text, its row, the draft). Here they are
//! one statement text, run as one command: each part after the `UPDATE` acts
//! only when the one before it changed a row (`changes() = 1`), so a save whose
//! document moved on writes nothing, as before. PostgreSQL takes one statement
//! per message, so it keeps the separate statements (`grouped`).

use std::sync::LazyLock;

use super::revisions::StoredText;
use super::store::{AFTER_NEXT, SET_NEXT, next_version};
use super::{Document, NextVersion, WRITTEN_COLUMNS, access};
use crate::db::{Conn, Error};

/// The first placeholder after the `UPDATE`'s (its viewer is `AFTER_NEXT`).
const R: usize = AFTER_NEXT + 1;

/// The statement for a save: with or without a revision text to store
/// (`[text]`), with or without a draft to drop (`[draft]`): index
/// `2 * text + draft`.
static SQL: LazyLock<[String; 4]> = LazyLock::new(|| {
    let update = format!(
        "UPDATE documents {}
         WHERE id = $6 AND version = $7 AND deleted_at IS NULL AND {} >= 2
         RETURNING {};",
        *SET_NEXT,
        access::level(&format!("${AFTER_NEXT}")),
        *WRITTEN_COLUMNS
    );
    let (hash, size, added, removed, author) = (R, R + 1, R + 2, R + 3, R + 4);
    let (data, base, depth, user) = (R + 5, R + 6, R + 7, R + 8);
    let text = format!(
        "INSERT INTO revision_texts (doc_seq, hash, base, depth, raw_size, data)
         SELECT d.seq, ${hash}, ${base}, ${depth}, ${size}, ${data} FROM documents AS d
         WHERE changes() = 1 AND d.id = $6;"
    );
    // The folder, tags, title, version and time are the row's as the
    // `UPDATE` left them.
    let revision = format!(
        "INSERT INTO revisions
             (doc_seq, rev, title, text_hash, size, added, removed, author, created_at, folder, tags)
         SELECT d.seq, d.version, d.title, ${hash}, ${size}, ${added}, ${removed}, ${author},
             d.updated_at, d.folder, d.tags
         FROM documents AS d WHERE changes() = 1 AND d.id = $6;"
    );
    let draft = format!(
        "DELETE FROM drafts WHERE changes() = 1 AND user_id = ${user}
             AND doc_seq = (SELECT seq FROM documents WHERE id = $6);"
    );
    [
        format!("{update}{revision}"),
        format!("{update}{revision}{draft}"),
        format!("{update}{text}{revision}"),
        format!("{update}{text}{revision}{draft}"),
    ]
});

/// A revision as the statement records it.
pub struct Revision<'a> {
    pub text: &'a StoredText,
    pub added: i64,
    pub removed: i64,
    pub author: Option<&'a str>,
}

/// Writes the next version of `id` over `base` as `viewer` may, its revision,
/// and drops `drop_draft_of`'s draft: `None` (nothing written) when the
/// document moved on, went to the trash, or may not be edited by `viewer`.
pub async fn save(
    conn: &impl Conn,
    (id, base, viewer): (&str, i64, Option<i64>),
    next: NextVersion<'_>,
    revision: Revision<'_>,
    drop_draft_of: Option<i64>,
) -> Result<Option<Document>, Error> {
    let text = revision.text;
    let which = 2 * usize::from(text.data.is_some()) + usize::from(drop_draft_of.is_some());
    let (data, base_text) = match &text.data {
        Some((data, base)) => (Some(data.clone()), base.as_ref()),
        None => (None, None),
    };
    let saved = next_version(SQL[which].as_str(), id, base, next)
        .bind(viewer)
        .bind(text.hash.clone())
        .bind(text.raw_size)
        .bind(revision.added)
        .bind(revision.removed)
        .bind(revision.author)
        .bind(data)
        .bind(base_text.map(|b| b.0.clone()))
        .bind(base_text.map_or(0, |b| b.1))
        .bind(drop_draft_of)
        .fetch_all(conn)
        .await?;
    Ok(saved.into_iter().next())
}
