//! Many new documents in one transaction (`quire seed`, tests): all or none,
//! each with its first revision.

use super::{Caller, DocError, DocId, Document, RENDER_VERSION, Valid, cjk, now_ms};
use super::{revisions, store};
use crate::db::Db;

/// Stores many documents in one transaction: all of them or none.
pub async fn create_batch(db: &Db, docs: Vec<Valid>) -> Result<usize, DocError> {
    let rendered = docs
        .into_iter()
        .map(|d| {
            let id = DocId::random();
            let html = super::render::RenderedPage::render(d.body(), Some(id.as_str()))?.packed;
            Ok((d, id, html))
        })
        .collect::<Result<Vec<_>, DocError>>()?;
    let now = now_ms();
    let mut tx = db.begin_write().await?;
    for (doc, id, html) in &rendered {
        insert_new(&mut tx, id, doc, html, Caller::Quire, now).await?;
    }
    tx.commit().await?;
    Ok(rendered.len())
}

/// Inserts a new document with its first revision, in the caller's transaction.
async fn insert_new(
    tx: &mut crate::db::WriteTx,
    id: &DocId,
    doc: &Valid,
    html: &store::PackedHtml,
    actor: Caller<'_>,
    now: i64,
) -> Result<Document, DocError> {
    let owner = actor.person().map(|a| a.user_id);
    let cjk = cjk::index_text(doc.title(), doc.body());
    let row = store::NewRow {
        id: id.as_str(),
        fields: &doc.fields(),
        html,
        render_version: RENDER_VERSION,
        cjk: &cjk,
        owner,
        space: None,
        now,
    };
    let created = store::insert(tx, row).await?;
    let author = actor.person().map(|a| a.name);
    revisions::record(
        tx,
        created.seq,
        1,
        doc.title(),
        doc.body(),
        None,
        author,
        now,
    )
    .await?;
    Ok(created)
}
