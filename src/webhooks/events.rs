//! Events as hooks are told them: made by the notifier from the queue of
//! changes, in its transaction, one delivery per hook that wants the event
//! and whose maker may read the document then (a deleted document: whose
//! maker owned it or was in its space). A body carries ids, the title, the
//! actor and links, never a document's text; a comment's text goes only to
//! hooks whose makers may read its document.

use serde_json::{Value, json};

use crate::db::webhooks::{self as stored, DocFacts};
use crate::db::{Conn, Error};
use crate::transfer::format_time;

/// A document as an event names it.
fn document_json(d: &DocFacts, base: &str) -> Value {
    json!({
        "id": d.id,
        "title": d.title,
        "space": d.space_id.map(|id| json!({"id": id, "name": d.space_name})),
        "folder": d.folder,
        "version": d.version,
        "url": format!("{base}/d/{}", d.id),
    })
}

fn body(event: &str, actor: Option<&str>, now: i64, mut rest: Value) -> String {
    let mut out = json!({
        "event": event,
        "at": format_time(now),
        "actor": actor,
    });
    if let (Some(out), Some(rest)) = (out.as_object_mut(), rest.as_object_mut()) {
        out.append(rest);
    }
    out.to_string()
}

/// Puts `body` in the outbox of every hook in `hooks`.
async fn post(
    ex: &impl Conn,
    hooks: &[i64],
    event: &str,
    body: &str,
    now: i64,
) -> Result<(), Error> {
    for hook in hooks {
        stored::enqueue(ex, *hook, event, body, now).await?;
    }
    Ok(())
}

/// A run of saves by one person: revisions `first` to `last` of `doc_seq`.
pub async fn saved(
    ex: &impl Conn,
    doc_seq: i64,
    (first, last): (i64, i64),
    actor: Option<&str>,
    (base, now): (&str, i64),
) -> Result<(), Error> {
    let event = if first == 1 {
        "document.created"
    } else {
        "document.updated"
    };
    let hooks = stored::listeners(ex, event, doc_seq).await?;
    if hooks.is_empty() {
        return Ok(());
    }
    let Some(d) = stored::document(ex, doc_seq).await? else {
        return Ok(());
    };
    let changes = (first > 1).then(|| {
        json!({
            "from": first - 1,
            "to": last,
            "url": format!("{base}/d/{}/diff?from={}&to={last}", d.id, first - 1),
        })
    });
    let rest = json!({"document": document_json(&d, base), "revisions": changes});
    post(ex, &hooks, event, &body(event, actor, now, rest), now).await
}

/// A comment written.
pub async fn commented(
    ex: &impl Conn,
    doc_seq: i64,
    comment: &crate::db::comments::CommentRow,
    (base, now): (&str, i64),
) -> Result<(), Error> {
    let event = "comment.added";
    let hooks = stored::listeners(ex, event, doc_seq).await?;
    if hooks.is_empty() {
        return Ok(());
    }
    let Some(d) = stored::document(ex, doc_seq).await? else {
        return Ok(());
    };
    let rest = json!({
        "document": document_json(&d, base),
        "comment": {
            "id": comment.id,
            "parent": comment.parent_id,
            "author": comment.author,
            "body": comment.body,
            "url": format!("{base}/d/{}#comment-{}", d.id, comment.id),
        },
    });
    let actor = Some(comment.author.as_str());
    post(ex, &hooks, event, &body(event, actor, now, rest), now).await
}

/// What a queued event (`kind` 'event') names: the event, and for a document
/// that is gone, what it was.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Detail {
    pub event: String,
    /// A suggested edit's number, for its events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<i64>,
    /// A deleted document: its id, title, space and owner as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<Gone>,
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Gone {
    pub id: String,
    pub title: String,
    pub space_id: Option<i64>,
    pub owner_id: Option<i64>,
}

/// A document trashed, restored, moved or deleted.
pub async fn happened(
    ex: &impl Conn,
    doc_seq: Option<i64>,
    detail: &Detail,
    actor: Option<&str>,
    (base, now): (&str, i64),
) -> Result<(), Error> {
    let event = detail.event.as_str();
    if let Some(gone) = &detail.gone {
        let hooks = stored::listeners_of_gone(ex, event, gone.space_id, gone.owner_id).await?;
        let rest = json!({"document": {"id": gone.id, "title": gone.title,
            "space": gone.space_id.map(|id| json!({"id": id}))}});
        return post(ex, &hooks, event, &body(event, actor, now, rest), now).await;
    }
    let Some(doc_seq) = doc_seq else {
        return Ok(());
    };
    let hooks = stored::listeners(ex, event, doc_seq).await?;
    if hooks.is_empty() {
        return Ok(());
    }
    let Some(d) = stored::document(ex, doc_seq).await? else {
        return Ok(());
    };
    let mut rest = json!({"document": document_json(&d, base)});
    if let Some(sid) = detail.suggestion
        && let Some(s) = crate::db::suggestions::by_id(ex, sid).await?
    {
        rest["suggestion"] = json!({
            "id": s.id,
            "author": s.author,
            "state": s.state,
            "url": format!("{base}/d/{}/suggestions/{}", d.id, s.id),
        });
    }
    post(ex, &hooks, event, &body(event, actor, now, rest), now).await
}
