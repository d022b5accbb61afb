//! Suggested edits: someone who may read a document (and may not, or
//! chooses not to, save it) proposes a new version based on the version they
//! read. Those who may edit it review it as a diff against the current text
//! and accept it (saved through the same three-way merge as any save, the
//! history naming both the editor and who suggested it; overlapping changes
//! open the merge view) or decline it with an answer. The author is told
//! either way; editors watching the document are told of new suggestions.

use serde_json::json;

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::suggestions::{self as stored, NewSuggestion, SuggestionRow};
use crate::documents::access::{Actor, Caller, authorize_live};
use crate::documents::history::{DiffLine, LineKind, diff_lines};
use crate::documents::{Access, DocError, DocId, Document, OnStale, Valid};

/// The longest answer to a declined suggestion, and the longest note.
const MAX_WORDS: usize = 2_000;

pub type Suggestion = SuggestionRow;

/// A suggestion as a reviewer sees it: the document now, the suggestion, and
/// the lines it changes against the current text.
pub struct Review {
    pub doc: Document,
    pub suggestion: Suggestion,
    pub lines: Vec<DiffLine>,
    pub added: usize,
    pub removed: usize,
    pub title_changed: bool,
    /// The reader may accept or decline it.
    pub may_decide: bool,
}

/// A live document the actor may read.
async fn readable(
    ex: &impl crate::db::Conn,
    id: &DocId,
    actor: Actor<'_>,
) -> Result<Document, DocError> {
    authorize_live(ex, id, actor, Access::Read).await
}

fn words(text: &str, what: &str) -> Result<String, DocError> {
    let text = text.trim();
    if text.chars().count() > MAX_WORDS {
        return Err(DocError::Invalid(format!(
            "The {what} is longer than {MAX_WORDS} characters; shorten it."
        )));
    }
    Ok(text.to_owned())
}

async fn queue(
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    event: &str,
    suggestion: i64,
    actor: i64,
) -> Result<(), DocError> {
    let detail = json!({"event": event, "suggestion": suggestion}).to_string();
    crate::db::notices::queue::event(ex, Some(doc_seq), &detail, Some(actor), now_ms()).await?;
    Ok(())
}

/// Saves `text` as a suggested edit of document `id`, based on version
/// `base`, with the author's `note`; its id.
pub async fn suggest(
    db: &Db,
    id: &DocId,
    actor: Actor<'_>,
    base: i64,
    text: &Valid,
    note: &str,
) -> Result<i64, DocError> {
    let note = words(note, "note")?;
    let tx = db.begin_write().await?;
    let doc = readable(&*tx, id, actor).await?;
    if base < 1 || base > doc.version {
        return Err(DocError::Invalid(format!(
            "Version {base} of this document does not exist; start from the current one."
        )));
    }
    if text.title() == doc.title && text.body() == doc.body {
        return Err(DocError::Invalid(
            "Nothing is changed: the suggestion is the document as it is.".into(),
        ));
    }
    let new = NewSuggestion {
        doc_seq: doc.seq,
        author_id: actor.user_id,
        author: actor.name,
        base_version: base,
        title: text.title(),
        body: text.body(),
        note: &note,
        now: now_ms(),
    };
    let sid = stored::insert(&*tx, &new).await?;
    queue(&*tx, doc.seq, "suggestion.opened", sid, actor.user_id).await?;
    tx.commit().await?;
    Ok(sid)
}

/// The open suggestions of `doc` the reader may see: all of them for those
/// who may edit it, their own for others.
pub async fn open_for(
    db: &Db,
    doc: &Document,
    actor: Actor<'_>,
) -> Result<Vec<Suggestion>, DocError> {
    // Read with the page: a document with none asks nothing more.
    if doc.talk.is_some_and(|t| !t.suggestions) {
        return Ok(Vec::new());
    }
    Ok(stored::open(&db.read, doc.seq, actor.user_id, doc.access.may_edit()).await?)
}

/// A suggestion of document `id`, for its author or those who may edit it.
async fn visible(
    ex: &impl crate::db::Conn,
    id: &DocId,
    sid: i64,
    actor: Actor<'_>,
) -> Result<(Document, Suggestion), DocError> {
    let doc = readable(ex, id, actor).await?;
    let s = stored::find(ex, doc.seq, sid)
        .await?
        .ok_or(DocError::NotFound)?;
    if !doc.access.may_edit() && s.author_id != Some(actor.user_id) {
        return Err(DocError::NotFound);
    }
    Ok((doc, s))
}

/// A suggestion with what it changes in the current text.
pub async fn review(db: &Db, id: &DocId, sid: i64, actor: Actor<'_>) -> Result<Review, DocError> {
    let (doc, suggestion) = visible(&db.read, id, sid, actor).await?;
    let lines = diff_lines(&doc.body, &suggestion.body, 3);
    let count = |kind: LineKind| lines.iter().filter(|l| l.kind == kind).count();
    Ok(Review {
        added: count(LineKind::Added),
        removed: count(LineKind::Removed),
        title_changed: doc.title != suggestion.title,
        may_decide: doc.access.may_edit() && suggestion.state == "open",
        lines,
        doc,
        suggestion,
    })
}

/// Accepts a suggestion: saved as the next version, merged with what was
/// saved since it was made (`DocError::Conflict` when the changes overlap:
/// nothing is saved and it stays open); the new version.
pub async fn accept(
    db: &Db,
    id: &DocId,
    sid: i64,
    actor: Actor<'_>,
    cap: usize,
) -> Result<i64, DocError> {
    let (doc, s) = visible(&db.read, id, sid, actor).await?;
    if !doc.access.may_edit() {
        return Err(DocError::Forbidden);
    }
    if s.state != "open" {
        return Err(DocError::Invalid(format!(
            "This suggestion was {} already.",
            s.state
        )));
    }
    let text = Valid::parse(&s.title, &s.body, cap)?;
    let merge = OnStale::MergeOnly { cap };
    let saved =
        crate::documents::save(db, id, s.base_version, text, merge, Caller::Person(actor)).await?;
    let version = saved.doc.version;
    let tx = db.begin_write().await?;
    if stored::decide(
        &*tx,
        sid,
        ("accepted", actor.name, now_ms()),
        None,
        Some(version),
    )
    .await?
    {
        queue(&*tx, doc.seq, "suggestion.accepted", sid, actor.user_id).await?;
    }
    tx.commit().await?;
    Ok(version)
}

/// Declines a suggestion, with an answer for its author.
pub async fn decline(
    db: &Db,
    id: &DocId,
    sid: i64,
    actor: Actor<'_>,
    answer: &str,
) -> Result<(), DocError> {
    let answer = words(answer, "answer")?;
    let tx = db.begin_write().await?;
    let (doc, s) = visible(&*tx, id, sid, actor).await?;
    if !doc.access.may_edit() {
        return Err(DocError::Forbidden);
    }
    let at = ("declined", actor.name, now_ms());
    if s.state != "open" || !stored::decide(&*tx, sid, at, Some(&answer), None).await? {
        return Err(DocError::Invalid(format!(
            "This suggestion was {} already.",
            s.state
        )));
    }
    queue(&*tx, doc.seq, "suggestion.declined", sid, actor.user_id).await?;
    tx.commit().await?;
    Ok(())
}

/// The versions of a document that accepted suggestions made: (version, who suggested it).
pub async fn accepted_versions(db: &Db, doc_seq: i64) -> Result<Vec<(i64, String)>, DocError> {
    Ok(stored::accepted(&db.read, doc_seq).await?)
}
