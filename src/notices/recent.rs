//! Recent changes: the revisions a reader may read, newest first, with the
//! saves one person made to one document within an hour gathered into one
//! line that leads to the changes they made together.

use std::collections::HashMap;

use crate::clock::now_ms;
use crate::db::Db;
pub use crate::db::notices::recent::{ChangeRow, Scope};
use crate::documents::DocError;
use crate::documents::access::Actor;

/// Revisions read for one page of recent changes.
const MOST: i64 = 300;

/// Saves by one person to one document within this span are one line.
const GATHER_MS: i64 = 3600 * 1000;

/// One line of recent changes: one or more saves by one person to one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub doc_id: String,
    pub title: String,
    pub author: Option<String>,
    pub newest: i64,
    pub oldest: i64,
    /// The first and last revision the line gathers.
    pub first_rev: i64,
    pub last_rev: i64,
    pub saves: i64,
    pub added: i64,
    pub removed: i64,
    pub space_name: Option<String>,
    pub folder: String,
    /// Saved after the reader last looked at recent changes.
    pub unseen: bool,
}

impl Line {
    /// Where the line leads: the changes its saves made together, or the
    /// document's first revision when the line starts with its creation.
    pub fn link(&self) -> String {
        if self.first_rev > 1 {
            format!(
                "/d/{}/diff?from={}&to={}",
                self.doc_id,
                self.first_rev - 1,
                self.last_rev
            )
        } else {
            format!("/d/{}/r/{}", self.doc_id, self.last_rev)
        }
    }
}

/// One page of recent changes.
#[derive(Debug, Clone)]
pub struct Page {
    pub lines: Vec<Line>,
    /// When the reader had last looked, before this look.
    pub seen_before: Option<i64>,
    /// Where the next page starts, when there are older changes.
    pub older: Option<i64>,
}

/// Gathers revisions (newest first) into lines: a save joins the line of the
/// same person and document when the line would still span at most an hour.
pub fn gather(rows: Vec<ChangeRow>, seen_before: Option<i64>) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut open: HashMap<(String, Option<String>), usize> = HashMap::new();
    for row in rows {
        let key = (row.doc_id.clone(), row.author.clone());
        if let Some(&i) = open.get(&key) {
            let line = &mut lines[i];
            if line.newest - row.created_at <= GATHER_MS {
                line.oldest = row.created_at;
                line.first_rev = line.first_rev.min(row.rev);
                line.last_rev = line.last_rev.max(row.rev);
                line.saves += 1;
                line.added += row.added;
                line.removed += row.removed;
                continue;
            }
        }
        open.insert(key, lines.len());
        lines.push(Line {
            unseen: seen_before.is_some_and(|seen| row.created_at > seen),
            doc_id: row.doc_id,
            title: row.title,
            author: row.author,
            newest: row.created_at,
            oldest: row.created_at,
            first_rev: row.rev,
            last_rev: row.rev,
            saves: 1,
            added: row.added,
            removed: row.removed,
            space_name: row.space_name,
            folder: row.folder,
        });
    }
    lines
}

/// Recent changes in `scope` that the person may read now. The first page
/// notes that they looked, for the "since your last visit" mark.
pub async fn recent(db: &Db, actor: Actor<'_>, scope: &Scope) -> Result<Page, DocError> {
    let rows = crate::db::notices::recent::list(&db.read, actor.user_id, scope, MOST).await?;
    let older = (rows.len() as i64 == MOST)
        .then(|| rows.last().map(|r| r.created_at))
        .flatten();
    let seen_before = if scope.before.is_none() {
        let tx = db.begin_write().await?;
        let before = crate::db::notices::recent::seen(&*tx, actor.user_id, now_ms()).await?;
        tx.commit().await?;
        before
    } else {
        None
    };
    Ok(Page {
        lines: gather(rows, seen_before),
        seen_before,
        older,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(doc: &str, author: &str, rev: i64, minutes: i64) -> ChangeRow {
        ChangeRow {
            doc_id: doc.into(),
            title: doc.to_uppercase(),
            rev,
            version: 9,
            author: Some(author.into()),
            created_at: minutes * 60_000,
            added: 1,
            removed: 0,
            folder: String::new(),
            space_name: None,
        }
    }

    #[test]
    fn saves_by_one_person_within_an_hour_are_one_line() {
        // Newest first: alice saves a five times in 40 minutes, bob saves b
        // in between, alice saves a again two hours earlier.
        let rows = vec![
            row("a", "alice", 7, 200),
            row("b", "bob", 2, 195),
            row("a", "alice", 6, 190),
            row("a", "alice", 5, 180),
            row("a", "alice", 4, 170),
            row("a", "alice", 3, 160),
            row("a", "alice", 2, 40),
        ];
        let lines = gather(rows, Some(185 * 60_000));
        let summary: Vec<(&str, i64, i64, i64, bool)> = lines
            .iter()
            .map(|l| {
                (
                    l.doc_id.as_str(),
                    l.first_rev,
                    l.last_rev,
                    l.saves,
                    l.unseen,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("a", 3, 7, 5, true),
                ("b", 2, 2, 1, true),
                ("a", 2, 2, 1, false)
            ]
        );
        assert_eq!(lines[0].link(), "/d/a/diff?from=2&to=7");
        assert_eq!(lines[0].added, 5);
    }

    #[test]
    fn a_line_that_starts_with_the_creation_leads_to_the_revision() {
        let lines = gather(vec![row("c", "carol", 1, 5)], None);
        assert_eq!(lines[0].link(), "/d/c/r/1");
        assert!(!lines[0].unseen, "never looked: nothing is marked");
    }
}
