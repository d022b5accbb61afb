//! Line-based three-way merge (diff3): the changes from a common base to the saved
//! text and to the user's text are combined; where both touched the same or
//! neighbouring lines and disagree, the region is a conflict for the user to settle.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, capture_diff_slices_deadline};

/// Past this a diff gives up on finding the smallest change and reports a coarser
/// one: still a correct merge, only with larger conflict regions.
const DIFF_BUDGET: Duration = Duration::from_millis(200);

/// One stretch of the merged text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Text both sides agree on (unchanged, changed by one side, or changed alike).
    Clean(String),
    /// Both sides changed these lines differently; each text is kept whole.
    Conflict {
        base: String,
        current: String,
        mine: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub chunks: Vec<Chunk>,
}

impl Merge {
    pub fn is_clean(&self) -> bool {
        self.chunks.iter().all(|c| matches!(c, Chunk::Clean(_)))
    }

    pub fn conflicts(&self) -> usize {
        self.chunks
            .iter()
            .filter(|c| matches!(c, Chunk::Conflict { .. }))
            .count()
    }

    /// The merged text; each conflict written with both sides between markers, so
    /// nothing is dropped and the user can edit it into shape.
    pub fn text_with_markers(&self, current_label: &str) -> String {
        let mut out = String::new();
        for chunk in &self.chunks {
            match chunk {
                Chunk::Clean(text) => out.push_str(text),
                Chunk::Conflict { current, mine, .. } => {
                    let newline = |out: &mut String| {
                        if !out.is_empty() && !out.ends_with('\n') {
                            out.push('\n');
                        }
                    };
                    newline(&mut out);
                    out.push_str("<<<<<<< your text\n");
                    out.push_str(mine);
                    newline(&mut out);
                    out.push_str("=======\n");
                    out.push_str(current);
                    newline(&mut out);
                    out.push_str(&format!(">>>>>>> {current_label}\n"));
                }
            }
        }
        out
    }
}

/// A change one side made: base lines `base` became that side's lines `side`.
#[derive(Debug, Clone, Copy)]
struct Hunk {
    base: (usize, usize),
    side: (usize, usize),
    mine: bool,
}

fn hunks(base: &[&str], side: &[&str], mine: bool, deadline: Instant) -> Vec<Hunk> {
    capture_diff_slices_deadline(Algorithm::Myers, base, side, Some(deadline))
        .iter()
        .map(|op| op.as_tag_tuple())
        .filter(|(tag, _, _)| *tag != DiffTag::Equal)
        .map(|(_, b, s)| Hunk {
            base: (b.start, b.end),
            side: (s.start, s.end),
            mine,
        })
        .collect()
}

/// The lines of a text, each with its line ending, so joining them gives the text
/// back exactly (a missing final newline stays missing).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Merges the changes `base -> current` and `base -> mine`.
pub fn merge(base: &str, current: &str, mine: &str) -> Merge {
    let deadline = Instant::now() + DIFF_BUDGET;
    let (b, c, m) = (lines(base), lines(current), lines(mine));
    let mut all = hunks(&b, &c, false, deadline);
    all.extend(hunks(&b, &m, true, deadline));
    all.sort_by_key(|h| (h.base.0, h.base.1));

    let mut chunks = Vec::new();
    let mut stable = String::new();
    let mut at = 0;
    let mut i = 0;
    while i < all.len() {
        // A region grows while the next change starts inside it or right where it
        // ends: edits to neighbouring lines are likely one passage, so they are
        // not merged silently.
        let start = all[i].base.0;
        let mut end = all[i].base.1;
        let mut j = i + 1;
        while j < all.len() && all[j].base.0 <= end {
            end = end.max(all[j].base.1);
            j += 1;
        }
        let region = &all[i..j];
        stable.extend(b[at..start].iter().copied());
        at = end;
        i = j;

        let side_text = |lines: &[&str], mine: bool| -> Option<String> {
            let own: Vec<&Hunk> = region.iter().filter(|h| h.mine == mine).collect();
            let (first, last) = (own.first()?, own.last()?);
            let from = first.side.0 - (first.base.0 - start);
            let to = last.side.1 + (end - last.base.1);
            Some(lines[from..to].concat())
        };
        let base_text = b[start..end].concat();
        let theirs = side_text(&c, false);
        let ours = side_text(&m, true);
        let resolved = match (theirs, ours) {
            (Some(t), None) => Ok(t),
            (None, Some(o)) => Ok(o),
            (Some(t), Some(o)) if t == o => Ok(t),
            (Some(t), Some(o)) => Err((t, o)),
            (None, None) => Ok(base_text.clone()),
        };
        match resolved {
            Ok(text) => stable.push_str(&text),
            Err((current, mine)) => {
                if !stable.is_empty() {
                    chunks.push(Chunk::Clean(std::mem::take(&mut stable)));
                }
                chunks.push(Chunk::Conflict {
                    base: base_text,
                    current,
                    mine,
                });
            }
        }
    }
    stable.extend(b[at..].iter().copied());
    if !stable.is_empty() {
        chunks.push(Chunk::Clean(stable));
    }
    Merge { chunks }
}

/// True when a text still holds a conflict as `text_with_markers` writes it.
pub fn has_markers(text: &str) -> bool {
    let mut open = false;
    for line in text.lines() {
        if line.starts_with("<<<<<<< ") {
            open = true;
        } else if open && line.starts_with(">>>>>>> ") {
            return true;
        }
    }
    false
}

/// The single-valued merge of a title: a change on one side wins; two different
/// changes are a conflict (`None`).
pub fn merge_title<'a>(base: &'a str, current: &'a str, mine: &'a str) -> Option<&'a str> {
    if mine == base || mine == current {
        Some(current)
    } else if current == base {
        Some(mine)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(base: &str, current: &str, mine: &str) -> String {
        let m = merge(base, current, mine);
        assert!(m.is_clean(), "expected a clean merge: {m:?}");
        m.text_with_markers("x")
    }

    const BASE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

    #[test]
    fn changes_far_apart_merge_cleanly() {
        let current = BASE.replace("two\n", "TWO\n");
        let mine = BASE.replace("six\n", "SIX\n");
        assert_eq!(
            clean(BASE, &current, &mine),
            "one\nTWO\nthree\nfour\nfive\nSIX\nseven\n"
        );
    }

    #[test]
    fn only_one_side_changed_takes_that_side() {
        let mine = BASE.replace("four\n", "4\n");
        assert_eq!(clean(BASE, BASE, &mine), mine);
        assert_eq!(clean(BASE, &mine, BASE), mine);
        assert_eq!(clean(BASE, BASE, BASE), BASE);
    }

    #[test]
    fn identical_changes_on_both_sides_are_taken_once() {
        let both = BASE.replace("three\n", "3\n");
        assert_eq!(clean(BASE, &both, &both), both);
        let both = format!("{BASE}eight\n");
        assert_eq!(clean(BASE, &both, &both), both);
    }

    #[test]
    fn insertions_at_different_places_both_land() {
        let current = format!("zero\n{BASE}");
        let mine = format!("{BASE}eight\n");
        assert_eq!(clean(BASE, &current, &mine), format!("zero\n{BASE}eight\n"));
    }

    #[test]
    fn overlapping_edits_conflict_and_keep_both_texts() {
        let current = BASE.replace("four\n", "four, theirs\n");
        let mine = BASE.replace("four\n", "four, mine\n");
        let m = merge(BASE, &current, &mine);
        assert_eq!(m.conflicts(), 1);
        assert_eq!(
            m.chunks,
            vec![
                Chunk::Clean("one\ntwo\nthree\n".into()),
                Chunk::Conflict {
                    base: "four\n".into(),
                    current: "four, theirs\n".into(),
                    mine: "four, mine\n".into(),
                },
                Chunk::Clean("five\nsix\nseven\n".into()),
            ]
        );
        let text = m.text_with_markers("version 2");
        assert_eq!(
            text,
            "one\ntwo\nthree\n<<<<<<< your text\nfour, mine\n=======\nfour, theirs\n\
             >>>>>>> version 2\nfive\nsix\nseven\n"
        );
    }

    #[test]
    fn edits_to_neighbouring_lines_are_a_conflict() {
        let current = BASE.replace("three\n", "THREE\n");
        let mine = BASE.replace("four\n", "FOUR\n");
        let m = merge(BASE, &current, &mine);
        assert_eq!(m.conflicts(), 1, "{m:?}");
        assert!(matches!(&m.chunks[1], Chunk::Conflict { mine, current, .. }
            if mine == "three\nFOUR\n" && current == "THREE\nfour\n"));
    }

    #[test]
    fn two_insertions_at_the_same_place_conflict() {
        let current = BASE.replace("four\n", "four\ntheirs\n");
        let mine = BASE.replace("four\n", "four\nmine\n");
        let m = merge(BASE, &current, &mine);
        assert_eq!(m.conflicts(), 1);
        let text = m.text_with_markers("v");
        assert!(text.contains("mine\n=======\ntheirs\n"), "{text}");
    }

    #[test]
    fn deletion_on_one_side_and_an_edit_elsewhere_merge() {
        let current = BASE.replace("two\n", "");
        let mine = BASE.replace("six\n", "6\n");
        assert_eq!(
            clean(BASE, &current, &mine),
            "one\nthree\nfour\nfive\n6\nseven\n"
        );
    }

    #[test]
    fn deleting_a_line_the_other_side_edited_is_a_conflict() {
        let current = BASE.replace("four\n", "");
        let mine = BASE.replace("four\n", "four, improved\n");
        let m = merge(BASE, &current, &mine);
        assert_eq!(m.conflicts(), 1);
        assert!(matches!(&m.chunks[1], Chunk::Conflict { current, mine, .. }
            if current.is_empty() && mine == "four, improved\n"));
    }

    #[test]
    fn empty_texts_merge() {
        assert_eq!(clean("", "", ""), "");
        assert_eq!(clean("", "", "new\n"), "new\n");
        assert_eq!(clean("a\n", "", "a\n"), "");
        let m = merge("", "theirs\n", "mine\n");
        assert_eq!(m.conflicts(), 1);
    }

    #[test]
    fn a_missing_final_newline_is_kept_as_it_is() {
        let base = "a\nb\nc\nd\ne";
        assert_eq!(clean(base, "A\nb\nc\nd\ne", base), "A\nb\nc\nd\ne");
        assert_eq!(
            clean(base, "A\nb\nc\nd\ne", "a\nb\nc\nd\nE"),
            "A\nb\nc\nd\nE"
        );
        // Adding the final newline is a change to the last line like any other.
        assert_eq!(
            clean(base, "A\nb\nc\nd\ne", "a\nb\nc\nd\ne\n"),
            "A\nb\nc\nd\ne\n"
        );
    }

    #[test]
    fn markers_start_on_their_own_line_when_a_side_lacks_a_final_newline() {
        let m = merge("a\nb", "a\nB", "a\nc");
        let text = m.text_with_markers("v2");
        assert_eq!(text, "a\n<<<<<<< your text\nc\n=======\nB\n>>>>>>> v2\n");
    }

    #[test]
    fn leftover_markers_are_recognised() {
        let m = merge("a\n", "b\n", "c\n");
        assert!(has_markers(&m.text_with_markers("version 2")));
        assert!(!has_markers("a\n>>>>>>> quoted\n<<<<<<< later\n"));
        assert!(!has_markers(BASE));
    }

    #[test]
    fn titles_merge_as_single_values() {
        assert_eq!(merge_title("t", "t", "mine"), Some("mine"));
        assert_eq!(merge_title("t", "theirs", "t"), Some("theirs"));
        assert_eq!(merge_title("t", "same", "same"), Some("same"));
        assert_eq!(merge_title("t", "theirs", "mine"), None);
    }
}
