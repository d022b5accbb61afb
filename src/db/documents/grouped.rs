//! The writes that share a transaction with others (group commit, `db::group`):
//! a document's next version over a known version, and a new document, each with
//! its revision. They come in owned and worked out, every text made before the
//! writer is taken, because a batch that fails runs each of its writes again.

use std::sync::Arc;

use super::one_trip;
pub use super::revisions::QueuedRevision;
use super::revisions::{NewRevision, record_prepared};
use super::{Document, Fields, NewRow, NextVersion, PackedHtml, insert};
use crate::db::group::Work;
use crate::db::{Db, Error, WriteTx};

/// The next version of document `id` over version `base`, as `viewer` saves it.
pub struct QueuedVersion {
    pub id: String,
    pub base: i64,
    pub viewer: Option<i64>,
    pub fields: Fields,
    pub html: PackedHtml,
    pub render_version: i64,
    /// The text the CJK index reads (see `documents::cjk`).
    pub cjk: String,
    pub now: i64,
    pub revision: QueuedRevision,
    /// The user whose draft of the document goes with the save.
    pub drop_draft_of: Option<i64>,
}

/// Writes `version` if its document is still at `base`, live, and the viewer may
/// edit it: one guarded `UPDATE`, the revision, the draft. `None` (nothing
/// written) when any of that is not so. The document comes back with its body
/// and HTML empty: the caller has them.
pub async fn write_version(db: &Db, version: QueuedVersion) -> Result<Option<Document>, Error> {
    let version = Arc::new(version);
    let work: Work<Option<Document>> = Box::new(move |tx| {
        let version = version.clone();
        Box::pin(async move { next_version(tx, &version).await })
    });
    db.write_grouped(work).await
}

async fn next_version(tx: &WriteTx, version: &QueuedVersion) -> Result<Option<Document>, Error> {
    let next = NextVersion {
        fields: &version.fields,
        html: &version.html,
        render_version: version.render_version,
        cjk: &version.cjk,
        now: version.now,
    };
    let at = (version.id.as_str(), version.base, version.viewer);
    one_trip::save(tx, at, next, &version.revision, version.drop_draft_of).await
}

/// A new document, owned by `owner`, and its first revision.
pub struct QueuedDocument {
    pub id: String,
    pub owner: Option<i64>,
    /// Its space; none: the owner's personal space.
    pub space: Option<i64>,
    pub fields: Fields,
    pub html: PackedHtml,
    pub render_version: i64,
    pub cjk: String,
    pub now: i64,
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
        fields: &doc.fields,
        html: &doc.html,
        render_version: doc.render_version,
        cjk: &doc.cjk,
        owner: doc.owner,
        space: doc.space,
        now: doc.now,
    };
    let created = insert(tx, row).await?;
    if let Some(owner) = doc.owner {
        crate::db::teams::spaces::set_last_written(tx, owner, doc.space).await?;
    }
    let revision = &doc.revision;
    let first = NewRevision {
        doc_seq: created.seq,
        rev: 1,
        title: &doc.fields.title,
        body: &doc.fields.body,
        prev: None,
        added: revision.added,
        removed: revision.removed,
        author: revision.author.as_deref(),
        now: doc.now,
    };
    record_prepared(tx, &first, &revision.text).await?;
    Ok(created)
}
