//! The documents domain: what a valid document is, and the operations on it. Knows
//! nothing of HTTP; every rule here is checked before anything touches the database.

pub mod access;
pub mod attachments;
mod callouts;
mod cjk;
mod create_batch;
mod did_you_mean;
pub mod drafts;
mod escape;
pub mod events;
pub mod extraction;
mod file_names;
mod folders;
mod footnotes;
pub mod front_matter;
mod headings;
mod highlight;
pub mod history;
mod id;
pub mod import_rows;
mod inline_marks;
pub mod inline_tags;
pub mod links;
mod lists;
mod math;
pub mod merge;
pub mod new_drafts;
pub mod place;
mod plain;
mod render;
mod rendered_diff;
pub mod rerender;
mod revisions;
mod save;
mod search;
mod search_fts;
mod search_pg;
mod search_query;
pub mod search_scope;
mod search_terms;
pub mod selection;
mod snippet;
pub mod spaces;
mod tasks;
mod valid;
pub mod word_forms;

use crate::db::documents as store;
use crate::db::documents::grouped::{self, QueuedDocument, QueuedRevision};
pub use crate::db::documents::listing::{InSpace, Listing, Order, Owner, Sort};
use crate::db::documents::revisions::StoredText;
pub use crate::db::documents::{Document, Summary, dump};
pub use access::{Access, Actor, Caller};
pub use create_batch::create_batch;
pub use drafts::Draft;
pub use folders::{Renamed, rename_folder};
pub use history::{
    Diff, DiffLine, DiffView, LineKind, history, place_change, restore_revision, revision,
    revision_diff,
};
pub use id::DocId;
pub use lists::{
    MAX_TAGS_LISTED, folders, list, list_knowing, list_trash, more_after, places, tags,
};
pub use merge::{Chunk, Merge};
pub use place::Place;
pub use render::{RENDER_VERSION, render_markdown, render_page};
pub use rendered_diff::Block;
pub use revisions::Revision;
pub use save::{Conflicted, OnStale, Saved, catch_up, save};
pub use search::{search, search_as_typed, search_in};
pub use search_query::{Found, SearchHit};
pub use tasks::set_task;
pub use valid::{Submitted, Tags, Valid};

pub use crate::clock::now_ms;
use crate::db::Db;

pub const MAX_TITLE_CHARS: usize = 200;
pub const PAGE_SIZE: i64 = 50;

/// Why a write was refused. Each variant is something the user can fix.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    #[error("The title is empty or has no visible character. Give the document a title.")]
    EmptyTitle,
    #[error("The title is {chars} characters long; the limit is {MAX_TITLE_CHARS}.")]
    TitleTooLong { chars: usize },
    #[error("{}", too_large_message(*size, *cap))]
    TooLarge { size: usize, cap: usize },
    #[error("No such document.")]
    NotFound,
    #[error("You may read this document but not change it.")]
    Forbidden,
    #[error("{0}")]
    Invalid(String),
    #[error("This document was changed since you opened it.")]
    Stale { current: Box<Document> },
    /// Someone saved since the user's base version and both changed the same
    /// passages: nothing was written; the merge shows where.
    #[error("This document was changed since you opened it, in the same places you changed.")]
    Conflict {
        current: Box<Document>,
        conflict: Box<Conflicted>,
    },
    /// The account making the change was deleted while its request ran (its
    /// sign-in was checked before, the write found the account gone).
    #[error("Your account no longer exists, so nothing was saved.")]
    AccountGone,
    /// The disk refused the write (full, read-only, failing): nothing was saved.
    #[error("Not saved: {0}, so quire could not write anything; try again later.")]
    Unwritable(&'static str),
    /// Quire's own failure (the database, a task that died): a 500, logged.
    #[error(transparent)]
    Internal(anyhow::Error),
}

impl From<crate::db::Error> for DocError {
    fn from(err: crate::db::Error) -> Self {
        match crate::db::storage_fault(&err) {
            Some(fault) => {
                tracing::error!(error = %fault.detail, "a write failed on the disk");
                Self::Unwritable(fault.what)
            }
            None => Self::Internal(err.into()),
        }
    }
}

pub fn too_large_message(size: usize, cap: usize) -> String {
    format!(
        "The document is {} bytes ({}); the limit is {} bytes ({}). Shorten it by {} bytes or split it.",
        group(size),
        human_size(size),
        group(cap),
        human_size(cap),
        group(size.saturating_sub(cap)),
    )
}

pub fn human_size(bytes: usize) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 1024 * 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0).replace(".0 ", " ")
    } else {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0)).replace(".0 ", " ")
    }
}

/// 262144 -> "262,144".
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text as quire stores it: NUL characters, which no reader can see and which
/// PostgreSQL refuses in text, become U+FFFD (as HTML parsers do); nothing else
/// changes.
pub fn without_nul(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\0') {
        text.replace('\0', "\u{FFFD}").into()
    } else {
        text.into()
    }
}

/// False for characters that draw nothing: spaces, controls, zero-width and
/// direction marks, byte-order marks, fillers and variation selectors. A title
/// made of only these would be an invisible link in every list.
fn visible(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E0FFF}'))
}

/// A body as quire stores it: line ends as LF (browsers send CRLF from a
/// textarea, and the editor's counter counts one byte per line end), NULs as
/// U+FFFD.
pub fn as_stored(body: &str) -> std::borrow::Cow<'_, str> {
    match without_nul(body) {
        text if text.contains('\r') => text.replace("\r\n", "\n").replace('\r', "\n").into(),
        text => text,
    }
}

/// The size in bytes of `as_stored(body)`, without building it.
pub fn stored_len(body: &str) -> usize {
    let bytes = body.as_bytes();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    let nul = bytes.iter().filter(|&&b| b == 0).count();
    // U+FFFD takes three bytes in UTF-8, the NUL it replaces one.
    bytes.len() - crlf + 2 * nul
}

/// A new document, with its first revision. Its CPU work (the page, the CJK
/// index text, the compressed text) is done before the writer is taken, and it
/// is written in a transaction it may share with other writes.
pub async fn create(db: &Db, doc: Valid, actor: Caller<'_>) -> Result<Document, DocError> {
    create_in(db, doc, actor, None).await
}

/// `create`, in space `asked` (none: where the actor last made one, else the
/// team space, else their personal space); the actor must be able to edit there.
pub async fn create_in(
    db: &Db,
    doc: Valid,
    actor: Caller<'_>,
    asked: Option<InSpace>,
) -> Result<Document, DocError> {
    let space = match actor {
        Caller::Person(a) => spaces::space_for_new(db, a.user_id, asked).await?,
        Caller::Quire => match asked {
            Some(InSpace::Id(n)) => Some(n),
            _ => None,
        },
    };
    let id = DocId::random();
    let page = render::RenderedPage::render(doc.body(), Some(id.as_str()))?;
    let new = QueuedDocument {
        id: id.as_str().to_owned(),
        owner: access::viewer(actor),
        space,
        fields: doc.fields(),
        html: page.packed,
        render_version: RENDER_VERSION,
        cjk: cjk::index_text(doc.title(), doc.body()),
        now: now_ms(),
        revision: QueuedRevision {
            text: StoredText::whole(doc.body())?,
            added: revisions::line_changes("", doc.body()).0,
            removed: 0,
            author: actor.person().map(|a| a.name.to_owned()),
        },
    };
    // The owner is the only row the new one names that may have gone since the
    // request was let in: an account deleted meanwhile.
    grouped::write_document(db, new).await.map_err(|e| {
        if crate::db::is_foreign_key_violation(&e) {
            DocError::AccountGone
        } else {
            e.into()
        }
    })
}

/// A document the actor may read (in the trash or not).
pub async fn get(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<Document, DocError> {
    let doc = access::authorize(&db.read, id, actor, Access::Read).await?;
    fresh_html(db, doc).await
}

/// Renders a document whose HTML is missing or from an older renderer, once: the
/// result is stored, so later views read it like any other.
pub async fn fresh_html(db: &Db, mut doc: Document) -> Result<Document, DocError> {
    if doc.render_version == RENDER_VERSION {
        return Ok(doc);
    }
    let (body, id) = (doc.body.clone(), doc.id.clone());
    let page = tokio::task::spawn_blocking(move || render::RenderedPage::render(&body, Some(&id)))
        .await
        .map_err(|e| DocError::Internal(e.into()))??;
    store::set_rendered(
        &db.write,
        doc.seq,
        doc.version,
        &page.packed,
        RENDER_VERSION,
    )
    .await?;
    doc.html = page.html;
    doc.render_version = RENDER_VERSION;
    Ok(doc)
}

/// Moves a live document to the trash; it can be restored until the trash is emptied.
pub async fn trash(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<(), DocError> {
    let tx = db.begin_content_write().await?;
    let doc = access::authorize(&*tx, id, actor, Access::Own).await?;
    if !store::set_deleted(&tx, id.as_str(), Some(now_ms())).await? {
        return Err(DocError::NotFound);
    }
    events::happened(&*tx, doc.seq, "document.trashed", access::viewer(actor)).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn restore(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<(), DocError> {
    let tx = db.begin_content_write().await?;
    let doc = access::authorize(&*tx, id, actor, Access::Own).await?;
    if !store::set_deleted(&tx, id.as_str(), None).await? {
        return Err(DocError::NotFound);
    }
    events::happened(&*tx, doc.seq, "document.restored", access::viewer(actor)).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes every document in the trash for good, and the files no document
/// names any more; returns how many documents.
pub async fn empty_trash(db: &Db, actor: Caller<'_>) -> Result<u64, DocError> {
    let tx = db.begin_write().await?;
    let gone = store::trash_contents(&*tx, access::viewer(actor)).await?;
    events::deleted(&*tx, &gone, access::viewer(actor)).await?;
    let n = store::purge_trash(&tx, access::viewer(actor)).await?;
    if n > 0 {
        crate::db::documents::attachments::collect_unnamed(&tx).await?;
    }
    tx.commit().await?;
    Ok(n)
}

/// How many documents there are, live and in the trash (for `/metrics`).
pub async fn counts(db: &Db) -> Result<(i64, i64), DocError> {
    Ok(store::counts(&db.read).await?)
}

#[cfg(test)]
mod tests;
