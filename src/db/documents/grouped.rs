//! The writes that share a transaction with others (group commit, `db::group`):
//! a new document with its revision. It comes in owned and worked out, every
//! text made before the writer is taken, because a batch that fails runs each
//! of its writes again.

use std::sync::Arc;

use super::revisions::{NewRevision, StoredText, record_prepared};
use super::{Document, NewRow, PackedHtml, insert};
use crate::db::group::Work;
use crate::db::{Db, Error, WriteTx};

/// A revision's text and line counts, made against the text it replaces.
pub struct QueuedRevision {
    pub text: StoredText,
    pub added: i64,
    pub removed: i64,
    pub author: Option<String>,
}

/// A new document, owned by `owner`, and its first revision.
pub struct QueuedDocument {
    pub id: String,
    pub owner: Option<i64>,
    pub title: String,
    pub body: String,
    pub html: PackedHtml,
    pub render_version: i64,
    pub cjk: String,
    pub now: i64,
    pub folder: String,
    /// A JSON array (see `tags_json`).
    pub tags: String,
    pub revision: QueuedRevision,
}

/// Inserts `doc` and its first revision. An owner deleted since the request was
/// let in fails the insert on its foreign key (`db::is_foreign_key_violation`).
pub async fn write_document(db: &Db, doc: QueuedDocument) -> Result<Document, Error> {
    let doc = Arc::new(doc);
    let work: Work<Document> = Box::new(move |tx| {
        let doc = doc.clone();
        Box::pin(async move { new_document(tx, &doc).await })
    });
    db.write_grouped(work).await
}

async fn new_document(tx: &WriteTx, doc: &QueuedDocument) -> Result<Document, Error> {
    let row = NewRow {
        id: &doc.id,
        title: &doc.title,
        body: &doc.body,
        html: &doc.html,
        render_version: doc.render_version,
        cjk: &doc.cjk,
        owner: doc.owner,
        now: doc.now,
        folder: &doc.folder,
        tags: &doc.tags,
    };
    let created = insert(tx, row).await?;
    let revision = &doc.revision;
    let first = NewRevision {
        doc_seq: created.seq,
        rev: 1,
        title: &doc.title,
        body: &doc.body,
        prev: None,
        added: revision.added,
        removed: revision.removed,
        author: revision.author.as_deref(),
        now: doc.now,
    };
    record_prepared(tx, &first, &revision.text).await?;
    Ok(created)
}
