//! Revisions as the domain sees them: what changed between two texts. How they
//! are stored (deltas, snapshots, hashes) is `db::documents::revisions`.

use similar::{ChangeTag, TextDiff};

pub use crate::db::documents::revisions::{Revision, find, list, text};

/// Lines added and removed going from `old` to `new`. Only the lines between
/// the whole lines both begin and end with are diffed: a one-line edit of a
/// long page splits and compares a few lines, not all of them twice.
pub fn line_changes(old: &str, new: &str) -> (i64, i64) {
    let (old, new) = between_common_lines(old, new);
    diff_lines(old, new)
}

/// `old` and `new` without the whole lines they both begin with and end with.
fn between_common_lines<'a>(old: &'a str, new: &'a str) -> (&'a str, &'a str) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // Back to just after the last line end in common (a line start in both).
    let start = a[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let room = a.len().min(b.len()) - start;
    let tail = a[start..]
        .iter()
        .rev()
        .zip(b[start..].iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let (a_end, b_end) = (a.len() - tail, b.len() - tail);
    let line_start = |s: &[u8], at: usize| at == start || s[at - 1] == b'\n';
    // Forward to the first line start in common, past a line end.
    let skip = match line_start(a, a_end) && line_start(b, b_end) {
        true => 0,
        false => a[a_end..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(tail, |i| i + 1),
    };
    (&old[start..a_end + skip], &new[start..b_end + skip])
}

fn diff_lines(old: &str, new: &str) -> (i64, i64) {
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

    /// Texts of a few short lines from a small alphabet, with CR, CRLF,
    /// non-ASCII letters and no final line end now and then.
    fn text(seed: &mut u64, lines: usize) -> String {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) as usize
        };
        let mut out = String::new();
        for _ in 0..lines {
            for _ in 0..next() % 4 {
                out.push(['a', 'b', 'é', ' '][next() % 4]);
            }
            out.push_str(["\n", "\n", "\r\n", "\r"][next() % 4]);
        }
        if next() % 3 == 0 {
            out.push('z');
        }
        out
    }

    #[test]
    fn only_the_lines_between_those_in_common_are_diffed_and_the_counts_stay() {
        let mut seed = 7;
        for round in 0..3_000 {
            let old = text(&mut seed, round % 12);
            // The same text with a few lines changed, added or removed.
            let mut lines: Vec<String> = old.split_inclusive('\n').map(str::to_owned).collect();
            let edits = text(&mut seed, 3);
            for (i, edit) in edits.split_inclusive('\n').enumerate() {
                let at = (round + i * 5) % (lines.len() + 1);
                match (round + i) % 3 {
                    0 if at < lines.len() => lines[at] = edit.to_owned(),
                    1 if at < lines.len() => {
                        lines.remove(at);
                    }
                    _ => lines.insert(at, edit.to_owned()),
                }
            }
            let new = lines.concat();
            assert_eq!(
                line_changes(&old, &new),
                diff_lines(&old, &new),
                "{old:?} -> {new:?}"
            );
        }
        let page = "line\n".repeat(500);
        let edited = format!("{page}one more\n");
        assert_eq!(between_common_lines(&page, &edited), ("", "one more\n"));
        assert_eq!(line_changes(&page, &edited), (1, 0));
    }
}
