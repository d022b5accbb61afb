//! Talking about a document: comments in Markdown under it, replies one level
//! deep, each comment's author may change or delete it, a thread can be marked
//! resolved. Whoever may read a document may read its comments and (unless its
//! space keeps commenting to editors) write them; a document in the trash has
//! none to show or write. Each new comment is queued for the notifier in its
//! own transaction: watchers and the people it mentions are told.

pub mod search;

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::comments::{self as stored, CommentRow, NewComment};
use crate::documents::access::{Actor, authorize_live};
use crate::documents::render_markdown;
use crate::documents::{Access, DocError, DocId, Document, human_size};

/// The largest comment, in bytes of Markdown.
pub const MAX_BYTES: usize = 16 * 1024;

/// The longest quoted passage kept with a comment, in characters.
pub const MAX_QUOTE_CHARS: usize = 1_000;

/// One comment as a reader sees it.
#[derive(Debug, Clone)]
pub struct Comment {
    pub id: i64,
    pub parent_id: Option<i64>,
    pub author: String,
    pub body: String,
    pub html: String,
    pub quote: Option<String>,
    pub created_at: i64,
    pub edited_at: Option<i64>,
    pub deleted: bool,
    /// The reader wrote it: they may change it.
    pub mine: bool,
    /// The reader may delete it (its author, or the document's owner).
    pub may_delete: bool,
}

/// A first comment and its replies, and whether it is resolved (by whom).
#[derive(Debug, Clone)]
pub struct Thread {
    pub first: Comment,
    pub replies: Vec<Comment>,
    pub resolved_by: Option<String>,
    pub resolved_at: Option<i64>,
    /// The reader may resolve it or open it again (an editor, or its author).
    pub may_resolve: bool,
}

/// A document's discussion as one reader sees it.
#[derive(Debug, Clone, Default)]
pub struct Discussion {
    pub threads: Vec<Thread>,
    pub may_comment: bool,
    /// Why the reader may not comment, when they may not.
    pub why_not: Option<&'static str>,
}

impl Discussion {
    /// Threads not resolved.
    pub fn open(&self) -> usize {
        self.threads
            .iter()
            .filter(|t| t.resolved_by.is_none())
            .count()
    }

    /// Comments in all, replies included, deleted ones not.
    pub fn count(&self) -> usize {
        self.threads
            .iter()
            .map(|t| usize::from(!t.first.deleted) + t.replies.len())
            .sum()
    }
}

/// What someone writes: the text, the comment it answers, the passage it quotes.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    pub body: String,
    pub parent: Option<i64>,
    pub quote: Option<String>,
}

/// A live document the actor may read.
async fn readable(
    ex: &impl crate::db::Conn,
    id: &DocId,
    actor: Actor<'_>,
) -> Result<Document, DocError> {
    authorize_live(ex, id, actor, Access::Read).await
}

/// Whether the reader may comment on `doc`, and if not, why.
async fn may_comment(
    ex: &impl crate::db::Conn,
    doc: &Document,
) -> Result<Option<&'static str>, DocError> {
    let rule = match doc.space_id {
        Some(space) => stored::space_rule(ex, space).await?,
        None => 1,
    };
    Ok(refusal(rule >= 2, doc))
}

/// Why the reader may not comment on `doc`, if they may not: its space keeps
/// commenting to editors (`editors_only`) and they may not edit it.
fn refusal(editors_only: bool, doc: &Document) -> Option<&'static str> {
    (editors_only && !doc.access.may_edit())
        .then_some("In this space only those who may edit a document comment on it.")
}

/// The discussion of document `id` as `actor` sees it.
pub async fn discussion(db: &Db, id: &DocId, actor: Actor<'_>) -> Result<Discussion, DocError> {
    let doc = readable(&db.read, id, actor).await?;
    of_document(db, &doc, actor).await
}

/// The discussion of a document already read with the reader's access.
pub async fn of_document(
    db: &Db,
    doc: &Document,
    actor: Actor<'_>,
) -> Result<Discussion, DocError> {
    let (rows, why_not) = match doc.talk {
        // Read with the page: a document nobody discussed asks nothing more.
        Some(talk) => {
            let rows = match talk.comments {
                true => stored::list(&db.read, doc.seq).await?,
                false => Vec::new(),
            };
            (rows, refusal(talk.editors_comment, doc))
        }
        None => {
            let rows = async { Ok::<_, DocError>(stored::list(&db.read, doc.seq).await?) };
            futures_util::future::try_join(rows, may_comment(&db.read, doc)).await?
        }
    };
    Ok(Discussion {
        threads: threads(rows, doc, actor),
        may_comment: why_not.is_none(),
        why_not,
    })
}

fn shown(row: CommentRow, doc: &Document, actor: Actor<'_>) -> Comment {
    let mine = row.author_id == Some(actor.user_id) && row.deleted_at.is_none();
    Comment {
        id: row.id,
        parent_id: row.parent_id,
        author: row.author,
        body: row.body,
        html: row.html,
        quote: row.quote,
        created_at: row.created_at,
        edited_at: row.edited_at,
        deleted: row.deleted_at.is_some(),
        mine,
        may_delete: row.deleted_at.is_none() && (mine || doc.access.may_own()),
    }
}

/// Comments in threads, oldest thread first; a reply whose thread is gone
/// (it cannot be, but a row is a row) is shown as a thread of its own.
fn threads(rows: Vec<CommentRow>, doc: &Document, actor: Actor<'_>) -> Vec<Thread> {
    let mut out: Vec<Thread> = Vec::new();
    for row in rows {
        if let Some(parent) = row.parent_id
            && let Some(t) = out.iter_mut().find(|t| t.first.id == parent)
        {
            t.replies.push(shown(row, doc, actor));
            continue;
        }
        let (resolved_by, resolved_at) = (row.resolved_by.clone(), row.resolved_at);
        let first = shown(row, doc, actor);
        let may_resolve = doc.access.may_edit() || first.mine;
        out.push(Thread {
            first,
            replies: Vec::new(),
            resolved_by,
            resolved_at,
            may_resolve,
        });
    }
    out
}

/// A comment's text checked and rendered: not empty, not over `MAX_BYTES`.
fn rendered(body: &str) -> Result<(String, String), DocError> {
    let body = crate::documents::without_nul(body).replace("\r\n", "\n");
    if body.trim().is_empty() {
        return Err(DocError::Invalid(
            "The comment is empty. Write something first.".into(),
        ));
    }
    if body.len() > MAX_BYTES {
        return Err(DocError::Invalid(format!(
            "The comment is {}; the limit is {}. Shorten it, or put the long part in a document.",
            human_size(body.len()),
            human_size(MAX_BYTES)
        )));
    }
    let html = render_markdown(&body);
    Ok((body, html))
}

/// A quoted passage as kept: NULs replaced, spaces tidied, at most
/// `MAX_QUOTE_CHARS`.
fn quoted(quote: Option<&str>) -> Option<String> {
    let quote = crate::documents::without_nul(quote?);
    let text = quote.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let mut cut: String = text.chars().take(MAX_QUOTE_CHARS).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    Some(cut)
}

/// Writes `draft` under document `id`; the new comment's id.
pub async fn add(db: &Db, id: &DocId, actor: Actor<'_>, draft: &Draft) -> Result<i64, DocError> {
    let (body, html) = rendered(&draft.body)?;
    let quote = quoted(draft.quote.as_deref());
    let tx = db.begin_write().await?;
    let doc = readable(&*tx, id, actor).await?;
    if let Some(why) = may_comment(&*tx, &doc).await? {
        return Err(DocError::Invalid(why.into()));
    }
    // A reply answers a thread's first comment: a reply to a reply joins its thread.
    let parent = match draft.parent {
        Some(p) => match stored::find(&*tx, doc.seq, p).await? {
            Some(c) => Some(c.parent_id.unwrap_or(c.id)),
            None => {
                return Err(DocError::Invalid(
                    "The comment you answered was deleted. Your text is below.".into(),
                ));
            }
        },
        None => None,
    };
    let new = NewComment {
        doc_seq: doc.seq,
        parent_id: parent,
        author_id: actor.user_id,
        author: actor.name,
        body: &body,
        html: &html,
        quote: if parent.is_none() {
            quote.as_deref()
        } else {
            None
        },
        now: now_ms(),
    };
    let cid = stored::insert(&*tx, &new).await?;
    tx.commit().await?;
    Ok(cid)
}

/// A comment of a live document the actor may read.
async fn comment_of(
    ex: &impl crate::db::Conn,
    id: &DocId,
    cid: i64,
    actor: Actor<'_>,
) -> Result<(Document, CommentRow), DocError> {
    let doc = readable(ex, id, actor).await?;
    let row = stored::find(ex, doc.seq, cid)
        .await?
        .filter(|c| c.deleted_at.is_none())
        .ok_or(DocError::NotFound)?;
    Ok((doc, row))
}

/// One comment of document `id` as the reader sees it (to change it).
pub async fn one(db: &Db, id: &DocId, cid: i64, actor: Actor<'_>) -> Result<Comment, DocError> {
    let (doc, row) = comment_of(&db.read, id, cid, actor).await?;
    Ok(shown(row, &doc, actor))
}

/// Changes the text of the actor's own comment.
pub async fn edit(
    db: &Db,
    id: &DocId,
    cid: i64,
    actor: Actor<'_>,
    body: &str,
) -> Result<(), DocError> {
    let (body, html) = rendered(body)?;
    let tx = db.begin_write().await?;
    let (_, row) = comment_of(&*tx, id, cid, actor).await?;
    if row.author_id != Some(actor.user_id) {
        return Err(DocError::Invalid(
            "Only its author may change a comment.".into(),
        ));
    }
    stored::edit(&*tx, cid, &body, &html, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes a comment: its author's act, or the document's owner's.
pub async fn delete(db: &Db, id: &DocId, cid: i64, actor: Actor<'_>) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let (doc, row) = comment_of(&*tx, id, cid, actor).await?;
    if row.author_id != Some(actor.user_id) && !doc.access.may_own() {
        return Err(DocError::Forbidden);
    }
    stored::remove(&*tx, &row, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Marks a thread resolved, or open again: anyone who may edit the document,
/// or the thread's author.
pub async fn resolve(
    db: &Db,
    id: &DocId,
    cid: i64,
    actor: Actor<'_>,
    done: bool,
) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = readable(&*tx, id, actor).await?;
    let row = stored::find(&*tx, doc.seq, cid)
        .await?
        .ok_or(DocError::NotFound)?;
    if row.parent_id.is_some() {
        return Err(DocError::Invalid(
            "A reply is resolved with its thread.".into(),
        ));
    }
    if !doc.access.may_edit() && row.author_id != Some(actor.user_id) {
        return Err(DocError::Forbidden);
    }
    let by = done.then_some(actor.name);
    stored::resolve(&*tx, cid, by, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Who may comment in a space: everyone who may read (`false`), or only
/// editors (`true`). Space managers set it (`teams::spaces`).
pub async fn editors_only(db: &Db, space_id: i64) -> Result<bool, DocError> {
    Ok(stored::space_rule(&db.read, space_id).await? >= 2)
}
