//! What changed and going back: revision lists, one revision's text, diffs between
//! any two, and restoring an old text as a new revision (so nothing is lost).

use similar::{ChangeTag, TextDiff};

use super::revisions::{self, Revision};
use super::{Access, Caller, DocError, DocId, Document, PAGE_SIZE, Valid, access};
use crate::db::Db;

async fn readable(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<Document, DocError> {
    access::authorize(&db.read, id, actor, Access::Read).await
}

/// One page of a document's revisions, newest first, and whether more follow.
pub async fn history(
    db: &Db,
    id: &DocId,
    page: i64,
    actor: Caller<'_>,
) -> Result<(Document, Vec<Revision>, Option<Revision>), DocError> {
    let doc = readable(db, id, actor).await?;
    let mut revs = revisions::list(&db.read, doc.seq, page.max(1), PAGE_SIZE).await?;
    let earlier = revs.get(PAGE_SIZE as usize).cloned();
    revs.truncate(PAGE_SIZE as usize);
    Ok((doc, revs, earlier))
}

/// What revision `rev` did to the folder and tags, in a few words, against
/// the revision before it (`None` before the first): "moved to Projects/Garden",
/// "tags: garden, seeds". `None` when it changed neither.
pub fn place_change(rev: &Revision, before: Option<&Revision>) -> Option<String> {
    let (folder, tags) = match before {
        Some(b) => (b.folder.as_str(), b.tags.as_str()),
        None => ("", "[]"),
    };
    let mut said = Vec::new();
    if rev.folder != folder {
        said.push(match (rev.folder.is_empty(), before.is_some()) {
            (true, _) => "moved out of its folders".to_owned(),
            (false, true) => format!("moved to {}", rev.folder),
            (false, false) => format!("in {}", rev.folder),
        });
    }
    if rev.tags != tags {
        let now = super::place::tags_from_json(&rev.tags);
        said.push(if now.is_empty() {
            "tags removed".to_owned()
        } else {
            format!("tags: {}", now.join(", "))
        });
    }
    (!said.is_empty()).then(|| said.join(", "))
}

/// Revision `rev` with its full text.
pub async fn revision(
    db: &Db,
    id: &DocId,
    rev: i64,
    actor: Caller<'_>,
) -> Result<(Document, Revision, String), DocError> {
    let doc = readable(db, id, actor).await?;
    let found = revisions::find(&db.read, doc.seq, rev)
        .await?
        .ok_or(DocError::NotFound)?;
    let text = revisions::text(&db.read, doc.seq, &found.text_hash).await?;
    Ok((doc, found, text))
}

/// Makes an old revision's text the current one, as a new revision.
pub async fn restore_revision(
    db: &Db,
    id: &DocId,
    rev: i64,
    actor: Caller<'_>,
) -> Result<Document, DocError> {
    let (_, old, text) = revision(db, id, rev, actor).await?;
    let html = super::render::RenderedPage::render(&text, Some(id.as_str()))?.packed;
    // The folder and tags come back with the text, as the history showed them.
    let tags = super::place::tags_from_json(&old.tags);
    let doc = Valid::restored(old.title, text, old.folder, tags);
    let mut tx = db.begin_write().await?;
    let current = access::authorize(&*tx, id, actor, Access::Edit).await?;
    if current.deleted_at.is_some() {
        return Err(DocError::NotFound);
    }
    let saved = super::save::write_next_version(&mut tx, &current, &doc, &html, actor).await?;
    tx.commit().await?;
    Ok(saved)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    Same,
    Added,
    Removed,
    /// Unchanged lines left out between hunks.
    Gap,
}

#[derive(Debug, Clone)]
pub struct DiffLine {
    pub kind: LineKind,
    pub old_no: Option<usize>,
    pub new_no: Option<usize>,
    /// (changed within the line?, text)
    pub parts: Vec<(bool, String)>,
}

/// How two revisions are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffView {
    /// The changed lines, with a few around each.
    Changes,
    /// Every line, the changes marked.
    Whole,
    /// The rendered page, its blocks marked kept, added or removed.
    Rendered,
}

pub struct Diff {
    pub doc: Document,
    pub from: Revision,
    pub to: Revision,
    pub lines: Vec<DiffLine>,
    /// The rendered page, asked for with `DiffView::Rendered` (empty otherwise).
    pub blocks: Vec<super::rendered_diff::Block>,
    pub title_changed: bool,
    /// Lines added and removed between the two (not `to`'s own counts).
    pub added: usize,
    pub removed: usize,
}

/// Revisions `from` and `to` compared line by line (only the changes with
/// `CONTEXT` lines around each, or the whole text with the changes marked),
/// or as rendered pages.
pub async fn revision_diff(
    db: &Db,
    id: &DocId,
    (from, to): (i64, i64),
    view: DiffView,
    actor: Caller<'_>,
) -> Result<Diff, DocError> {
    let (doc, from_rev, old) = revision(db, id, from, actor).await?;
    let (_, to_rev, new) = revision(db, id, to, actor).await?;
    let context = if view == DiffView::Whole {
        old.lines().count().max(new.lines().count()) + 1
    } else {
        CONTEXT
    };
    let lines = diff_lines(&old, &new, context);
    let count = |kind: LineKind| lines.iter().filter(|l| l.kind == kind).count();
    let blocks = if view == DiffView::Rendered {
        // Rendering is CPU work: off the async threads.
        let doc_id = doc.id.clone();
        tokio::task::spawn_blocking(move || {
            super::rendered_diff::rendered_diff(&old, &new, &doc_id)
        })
        .await
        .map_err(|e| DocError::Internal(e.into()))?
    } else {
        Vec::new()
    };
    Ok(Diff {
        blocks,
        title_changed: from_rev.title != to_rev.title,
        added: count(LineKind::Added),
        removed: count(LineKind::Removed),
        lines,
        doc,
        from: from_rev,
        to: to_rev,
    })
}

/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;

/// A line diff with changed words marked, `context` lines around each change.
pub fn diff_lines(old: &str, new: &str, context: usize) -> Vec<DiffLine> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(old, new);
    let mut out = Vec::new();
    for (i, group) in diff.grouped_ops(context).iter().enumerate() {
        if i > 0 {
            out.push(DiffLine {
                kind: LineKind::Gap,
                old_no: None,
                new_no: None,
                parts: vec![],
            });
        }
        for op in group {
            for change in diff.iter_inline_changes(op) {
                let kind = match change.tag() {
                    ChangeTag::Equal => LineKind::Same,
                    ChangeTag::Insert => LineKind::Added,
                    ChangeTag::Delete => LineKind::Removed,
                };
                let parts = change
                    .iter_strings_lossy()
                    .map(|(emph, s)| (emph, s.trim_end_matches('\n').to_string()))
                    .collect();
                out.push(DiffLine {
                    kind,
                    old_no: change.old_index().map(|n| n + 1),
                    new_no: change.new_index().map(|n| n + 1),
                    parts,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_marks_changed_lines_and_words() {
        let lines = diff_lines("a\nthe quick fox\nc\n", "a\nthe slow fox\nc\n", CONTEXT);
        let removed = lines.iter().find(|l| l.kind == LineKind::Removed).unwrap();
        let added = lines.iter().find(|l| l.kind == LineKind::Added).unwrap();
        assert!(removed.parts.iter().any(|(e, s)| *e && s.contains("quick")));
        assert!(added.parts.iter().any(|(e, s)| *e && s.contains("slow")));
        assert_eq!(added.new_no, Some(2));
    }

    #[test]
    fn far_apart_changes_are_separated_by_a_gap() {
        let old: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 1\n", "line one\n")
            .replace("line 38\n", "x\n");
        let lines = diff_lines(&old, &new, CONTEXT);
        assert!(lines.iter().any(|l| l.kind == LineKind::Gap));
        assert!(lines.len() < 20);
        let whole = diff_lines(&old, &new, 41);
        assert!(whole.iter().all(|l| l.kind != LineKind::Gap));
        assert_eq!(
            whole.iter().filter(|l| l.kind == LineKind::Same).count(),
            38
        );
    }
}
