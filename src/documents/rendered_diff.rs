//! Two revisions compared as pages: the text cut into blocks (paragraphs,
//! headings, lists, code blocks, front matter: whatever blank lines part,
//! a fence or front matter kept whole), the block sequences compared, and
//! each block rendered (and sanitised) on its own, marked as kept, added or
//! removed. A changed paragraph shows as the old one removed and the new one
//! added; the line diff shows the words.

use similar::{ChangeTag, TextDiff};

use super::history::LineKind;
use super::render::render_page;

/// A block of the compared page: what happened to it, and its HTML.
#[derive(Debug, Clone)]
pub struct Block {
    pub kind: LineKind,
    pub html: String,
}

/// The blocks of `text`, each with the line ending after it.
fn blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block = String::new();
    let mut fence: Option<String> = None;
    let mut in_front = text.starts_with("---\n") || text.starts_with("---\r\n");
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        let trimmed = bare.trim_start();
        if in_front {
            block.push_str(line);
            if i > 0 && (bare == "---" || bare == "...") {
                in_front = false;
                out.push(std::mem::take(&mut block));
            }
            continue;
        }
        let opens = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        match &fence {
            Some(f) if trimmed.starts_with(f.as_str()) => fence = None,
            None if opens && bare.len() - trimmed.len() < 4 => {
                fence = Some(trimmed.chars().take(3).collect());
            }
            _ => {}
        }
        if fence.is_none() && trimmed.is_empty() {
            if !block.trim().is_empty() {
                out.push(std::mem::take(&mut block));
            }
            block.clear();
            continue;
        }
        block.push_str(line);
    }
    if !block.trim().is_empty() {
        out.push(block);
    }
    out
}

/// `old` and `new` as one page, each block marked (`Same`, `Added` or
/// `Removed`), rendered for document `doc_id`.
pub fn rendered_diff(old: &str, new: &str, doc_id: &str) -> Vec<Block> {
    let (old, new) = (blocks(old), blocks(new));
    // A block is the same whether a line ending follows it or not (the last
    // one of a text that grew).
    let old: Vec<&str> = old.iter().map(|b| b.trim_end()).collect();
    let new: Vec<&str> = new.iter().map(|b| b.trim_end()).collect();
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_slices(&old, &new);
    diff.iter_all_changes()
        .map(|change| Block {
            kind: match change.tag() {
                ChangeTag::Equal => LineKind::Same,
                ChangeTag::Insert => LineKind::Added,
                ChangeTag::Delete => LineKind::Removed,
            },
            html: render_page(change.value(), Some(doc_id)),
        })
        .filter(|b| !b.html.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_part_blocks_but_not_fences_or_front_matter() {
        let text = "---\na: 1\n\nb: 2\n---\n# Title\n\nOne\ntwo\n\n\n```\ncode\n\nmore\n```\n\nEnd";
        assert_eq!(
            blocks(text),
            [
                "---\na: 1\n\nb: 2\n---\n",
                "# Title\n",
                "One\ntwo\n",
                "```\ncode\n\nmore\n```\n",
                "End"
            ]
        );
    }

    #[test]
    fn changed_blocks_are_marked_and_rendered() {
        let old = "# Plan\n\nWe ship on *Monday*.\n\nKept.";
        let new =
            "# Plan\n\nWe ship on *Friday*.\n\nKept.\n\n<script>alert(1)</script>\n\nNew end.\n";
        let page = rendered_diff(old, new, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
        let kinds: Vec<_> = page.iter().map(|b| b.kind.clone()).collect();
        assert_eq!(
            kinds,
            [
                LineKind::Same,
                LineKind::Removed,
                LineKind::Added,
                LineKind::Same,
                LineKind::Added
            ]
        );
        assert!(page[1].html.contains("<em>Monday</em>"));
        assert!(page[2].html.contains("<em>Friday</em>"));
        assert!(page.iter().all(|b| !b.html.contains("<script")));
    }
}
