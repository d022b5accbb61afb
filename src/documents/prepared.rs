//! A save worked out before the writer is taken. Everything that costs CPU — the
//! CJK index text, the line counts, the revision's hash and zstd delta — is made
//! from the version read on a reader, on the request's own thread; the write
//! transaction then holds one guarded `UPDATE` and the revision's inserts. If
//! the document moved on meanwhile (or the user may no longer edit it), nothing
//! is written and the caller takes the careful path, which decides what to say.

use super::{
    Access, Actor, DocError, DocId, Document, RENDER_VERSION, Valid, access, cjk, render_page,
    revisions,
};
use crate::db::Db;
use crate::db::documents::revisions::{NewRevision, StoredText, prepare_text, record_prepared};
use crate::db::documents::{self as store, PackedHtml, drafts};

/// A body's page, rendered and compressed for storing, before the writer is taken.
#[derive(Clone)]
pub(super) struct Page {
    pub html: String,
    pub packed: PackedHtml,
}

impl Page {
    /// `id`: the document's, when it has one (its files' images point there).
    pub fn render(body: &str, id: Option<&str>) -> Result<Self, DocError> {
        let html = render_page(body, id);
        let packed = PackedHtml::pack(&html)?;
        Ok(Self { html, packed })
    }
}

/// The work of a save over version `base`, done against that version's text.
pub(super) struct Prepared {
    cjk: String,
    added: i64,
    removed: i64,
    text: StoredText,
}

/// Prepares saving `doc` over version `base`: `None` when the version read now
/// is not `base` or the actor may not edit it (the careful path then says why).
pub(super) async fn prepare(
    db: &Db,
    id: &DocId,
    base: i64,
    doc: &Valid,
    actor: Option<Actor<'_>>,
) -> Result<Option<Prepared>, DocError> {
    let current = match access::authorize(&db.read, id, actor, Access::Edit).await {
        Ok(current) => current,
        Err(DocError::Internal(e)) => return Err(DocError::Internal(e)),
        Err(_) => return Ok(None),
    };
    if current.deleted_at.is_some() || current.version != base {
        return Ok(None);
    }
    let cjk = cjk::index_text(doc.title(), doc.body());
    let (added, removed) = revisions::line_changes(&current.body, doc.body());
    let text = prepare_text(&db.read, current.seq, doc.body(), Some(&current.body)).await?;
    Ok(Some(Prepared {
        cjk,
        added,
        removed,
        text,
    }))
}

/// What the write transaction needs, owned: it may run twice (its batch
/// failed, see `db::Db::write_grouped`).
struct Job {
    id: String,
    base: i64,
    doc: Valid,
    page: Page,
    viewer: Option<i64>,
    author: Option<String>,
    drop_draft_of: Option<i64>,
    prepared: Prepared,
    now: i64,
}

/// Writes a prepared save, in a transaction it may share with other saves:
/// one guarded `UPDATE`, the revision, and the actor's draft of the document
/// removed when `drop_draft`. `None` (nothing written) when the document is no
/// longer at `base` or editable by the actor.
async fn write(db: &Db, job: Job) -> Result<Option<Document>, DocError> {
    async fn statements(
        tx: &crate::db::WriteTx,
        job: &Job,
    ) -> Result<Option<Document>, crate::db::Error> {
        let tags = job.doc.tags_json();
        let next = store::NextVersion {
            title: job.doc.title(),
            body: job.doc.body(),
            html: &job.page.packed,
            render_version: RENDER_VERSION,
            cjk: &job.prepared.cjk,
            now: job.now,
            folder: job.doc.folder(),
            tags: tags.as_deref(),
        };
        let Some(saved) = store::update_if_current(tx, &job.id, job.base, job.viewer, next).await?
        else {
            return Ok(None);
        };
        let revision = NewRevision {
            doc_seq: saved.seq,
            rev: saved.version,
            title: &saved.title,
            body: job.doc.body(),
            prev: None,
            added: job.prepared.added,
            removed: job.prepared.removed,
            author: job.author.as_deref(),
            now: saved.updated_at,
        };
        record_prepared(tx, &revision, &job.prepared.text).await?;
        if let Some(user_id) = job.drop_draft_of {
            drafts::remove(tx, saved.seq, user_id).await?;
        }
        Ok(Some(saved))
    }
    let job = std::sync::Arc::new(job);
    let shared = job.clone();
    let work: crate::db::Work<Option<Document>> = Box::new(move |tx| {
        let job = shared.clone();
        Box::pin(async move { statements(tx, &job).await })
    });
    let saved = db.write_grouped(work).await?;
    // The statement left out the texts it wrote: they are the job's.
    Ok(saved.map(|mut doc| {
        job.doc.body().clone_into(&mut doc.body);
        doc.html.clone_from(&job.page.html);
        doc
    }))
}

/// Saves `doc` over `base` the quick way if nothing moved since it was read:
/// the saved document, or `None` when the caller must take the careful path.
pub(super) async fn save_quickly(
    db: &Db,
    (id, base): (&DocId, i64),
    doc: &Valid,
    page: &Page,
    actor: Option<Actor<'_>>,
    drop_draft: bool,
) -> Result<Option<Document>, DocError> {
    let Some(prepared) = prepare(db, id, base, doc, actor).await? else {
        return Ok(None);
    };
    let job = Job {
        id: id.as_str().to_owned(),
        base,
        doc: doc.clone(),
        page: page.clone(),
        viewer: access::viewer(actor),
        author: actor.map(|a| a.name.to_owned()),
        drop_draft_of: actor.filter(|_| drop_draft).map(|a| a.user_id),
        prepared,
        now: super::now_ms(),
    };
    write(db, job).await
}
