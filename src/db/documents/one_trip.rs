//! A save in one trip to the database. Each statement sent through the pool is
//! a hand-off to SQLite's worker thread and back, or a round trip to
//! PostgreSQL; a save was three or four (the guarded `UPDATE`, the revision's
//! text, its row, the draft). Here they are one statement text, run as one
//! command. On SQLite they are statements one after the other, each after the
//! `UPDATE` acting only when the one before it changed a row (`changes() =
//! 1`); on PostgreSQL, which takes one statement per message, the `UPDATE` is
//! a `WITH` whose returned row the others read. Either way a save whose
//! document moved on writes nothing, as before.

use std::sync::LazyLock;

use super::revisions::QueuedRevision;
use super::store::{AFTER_NEXT, SET_NEXT, next_version};
use super::{Document, NextVersion, WRITTEN_COLUMNS, access};
use crate::db::{Conn, Error};

/// The first placeholder after the `UPDATE`'s (its viewer is `AFTER_NEXT`).
const R: usize = AFTER_NEXT + 1;
const HASH: usize = R;
const SIZE: usize = R + 1;
const ADDED: usize = R + 2;
const REMOVED: usize = R + 3;
const AUTHOR: usize = R + 4;
const DATA: usize = R + 5;
const BASE: usize = R + 6;
const DEPTH: usize = R + 7;
const USER: usize = R + 8;

/// The guarded `UPDATE`, returning what `Document` reads.
fn update() -> String {
    format!(
        "UPDATE documents {}
         WHERE id = $6 AND version = $7 AND deleted_at IS NULL AND {} >= 2
         RETURNING {}",
        *SET_NEXT,
        access::level(&format!("${AFTER_NEXT}")),
        *WRITTEN_COLUMNS
    )
}

/// The statements for a save, with or without a revision text to store and
/// a draft to drop: index `2 * text + draft`.
type Variants = [String; 4];

/// Each part reads the saved row from `d` (the row as the `UPDATE` left it),
/// guarded by `guard`.
fn parts(from: &str, guard: &str) -> (String, String, String) {
    let text = format!(
        "INSERT INTO revision_texts (doc_seq, hash, base, depth, raw_size, data)
         SELECT d.seq, ${HASH}, ${BASE}, ${DEPTH}, ${SIZE}, ${DATA} FROM {from} {guard}"
    );
    let revision = format!(
        "INSERT INTO revisions
             (doc_seq, rev, title, text_hash, size, added, removed, author, created_at, folder, tags)
         SELECT d.seq, d.version, d.title, ${HASH}, ${SIZE}, ${ADDED}, ${REMOVED}, ${AUTHOR},
             d.updated_at, d.folder, d.tags
         FROM {from} {guard}"
    );
    let draft = format!(
        "DELETE FROM drafts WHERE user_id = ${USER}
             AND doc_seq IN (SELECT d.seq FROM {from} {guard})"
    );
    (text, revision, draft)
}

static SQLITE: LazyLock<Variants> = LazyLock::new(|| {
    let update = update();
    let (text, revision, draft) = parts("documents AS d", "WHERE changes() = 1 AND d.id = $6");
    let join = |parts: &[&str]| parts.join(";\n");
    [
        join(&[&update, &revision]),
        join(&[&update, &revision, &draft]),
        join(&[&update, &text, &revision]),
        join(&[&update, &text, &revision, &draft]),
    ]
});

static POSTGRES: LazyLock<Variants> = LazyLock::new(|| {
    let update = update();
    let (text, revision, draft) = parts("saved AS d", "");
    let with = |parts: &[(&str, &str)]| {
        let ctes: Vec<String> = parts.iter().map(|(n, s)| format!("{n} AS ({s})")).collect();
        format!("WITH {} SELECT * FROM saved", ctes.join(",\n"))
    };
    let (u, t, r, g) = (
        ("saved", update.as_str()),
        ("text", text.as_str()),
        ("revision", revision.as_str()),
        ("draft", draft.as_str()),
    );
    [
        with(&[u, r]),
        with(&[u, r, g]),
        with(&[u, t, r]),
        with(&[u, t, r, g]),
    ]
});

/// Writes the next version of `id` over `base` as `viewer` may, its revision,
/// and drops `drop_draft_of`'s draft: `None` (nothing written) when the
/// document moved on, went to the trash, or may not be edited by `viewer`.
pub async fn save(
    conn: &impl Conn,
    (id, base, viewer): (&str, i64, Option<i64>),
    next: NextVersion<'_>,
    revision: &QueuedRevision,
    drop_draft_of: Option<i64>,
) -> Result<Option<Document>, Error> {
    let text = &revision.text;
    let which = 2 * usize::from(text.data.is_some()) + usize::from(drop_draft_of.is_some());
    let sql = match crate::db::is_postgres(conn) {
        true => &POSTGRES[which],
        false => &SQLITE[which],
    };
    let (data, base_text) = match &text.data {
        Some((data, base)) => (Some(data.clone()), base.as_ref()),
        None => (None, None),
    };
    let saved = next_version(sql.as_str(), id, base, next)
        .bind(viewer)
        .bind(text.hash.clone())
        .bind(text.raw_size)
        .bind(revision.added)
        .bind(revision.removed)
        .bind(revision.author.as_deref())
        .bind(data)
        .bind(base_text.map(|b| b.0.clone()))
        .bind(base_text.map_or(0, |b| b.1))
        .bind(drop_draft_of)
        .fetch_all(conn)
        .await?;
    Ok(saved.into_iter().next())
}
