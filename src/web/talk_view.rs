//! A document's discussion as its page shows it: threads of comments, and the
//! new comment's form with what was wrong with the last one.

use super::when::{fmt_time, iso_time};
use crate::comments::{Comment, Discussion};

/// One comment as the section shows it.
#[derive(Clone, Debug)]
pub struct CommentView {
    pub id: i64,
    pub author: String,
    pub html: String,
    pub quote: Option<String>,
    pub when: String,
    pub when_iso: String,
    pub edited: bool,
    pub deleted: bool,
    pub mine: bool,
    pub may_delete: bool,
}

impl From<&Comment> for CommentView {
    fn from(c: &Comment) -> Self {
        Self {
            id: c.id,
            author: c.author.clone(),
            html: c.html.clone(),
            quote: c.quote.clone(),
            when: fmt_time(c.created_at),
            when_iso: iso_time(c.created_at),
            edited: c.edited_at.is_some(),
            deleted: c.deleted,
            mine: c.mine,
            may_delete: c.may_delete,
        }
    }
}

/// A thread: its comments (the first, then the replies) and whether it is resolved.
#[derive(Clone, Debug)]
pub struct ThreadView {
    pub id: i64,
    pub comments: Vec<CommentView>,
    pub resolved_by: Option<String>,
    pub may_resolve: bool,
}

/// The discussion under a document's page, and the new comment's form.
#[derive(Clone, Debug, Default)]
pub struct TalkView {
    pub doc_id: String,
    pub threads: Vec<ThreadView>,
    pub count: usize,
    pub open: usize,
    pub may_comment: bool,
    pub why_not: Option<String>,
    /// What went wrong with the last comment, and its text kept (body, quote).
    pub error: Option<String>,
    pub body: String,
    pub quote: String,
}

impl TalkView {
    pub fn new(doc_id: &str, d: &Discussion) -> Self {
        Self {
            doc_id: doc_id.to_owned(),
            threads: d
                .threads
                .iter()
                .map(|t| ThreadView {
                    id: t.first.id,
                    comments: std::iter::once(&t.first)
                        .chain(&t.replies)
                        .map(CommentView::from)
                        .collect(),
                    resolved_by: t.resolved_by.clone(),
                    may_resolve: t.may_resolve,
                })
                .collect(),
            count: d.count(),
            open: d.open(),
            may_comment: d.may_comment,
            why_not: d.why_not.map(str::to_owned),
            ..Self::default()
        }
    }
}
