//! Revisions as the domain sees them: what changed between two texts. How they
//! are stored (deltas, snapshots, hashes) is `db::documents::revisions`.

use similar::{ChangeTag, TextDiff};

pub use crate::db::documents::revisions::{Revision, find, list, text};

/// Lines added and removed going from `old` to `new`.
pub fn line_changes(old: &str, new: &str) -> (i64, i64) {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(100))
        .diff_lines(old, new);
    diff.iter_all_changes()
        .fold((0, 0), |(a, r), c| match c.tag() {
            ChangeTag::Insert => (a + 1, r),
            ChangeTag::Delete => (a, r + 1),
            ChangeTag::Equal => (a, r),
        })
}

/// Appends revision `rev` of a document, inside the caller's transaction. `prev` is
/// the body it replaces (None for a new document).
#[allow(clippy::too_many_arguments)]
pub async fn record(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    rev: i64,
    title: &str,
    body: &str,
    prev: Option<&str>,
    author: Option<&str>,
    now: i64,
) -> Result<(), crate::db::Error> {
    let (added, removed) = line_changes(prev.unwrap_or(""), body);
    crate::db::documents::revisions::record(
        conn,
        crate::db::documents::revisions::NewRevision {
            doc_seq,
            rev,
            title,
            body,
            prev,
            added,
            removed,
            author,
            now,
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_changes_count_added_and_removed_lines() {
        assert_eq!(line_changes("a\nb\nc\n", "a\nB\nc\nd\n"), (2, 1));
        assert_eq!(line_changes("", "x\n"), (1, 0));
    }
}
