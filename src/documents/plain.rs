//! Markdown as a reader sees it, for search snippets: the syntax around the
//! words (`##`, `**`, backticks, table pipes, fences, list markers, a link's
//! address) left out. Line by line and lazily, so a snippet pays only for the
//! text it reads before its window is full; no parser, which would cost ~0.5 ms
//! for every 64 KB hit.

/// The characters of `text` without its Markdown syntax; one line in, one line
/// out (a line that is only syntax, a fence or a table's rule, becomes empty).
pub fn chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.split_inclusive('\n').flat_map(line)
}

fn line(raw: &str) -> std::vec::IntoIter<char> {
    let (body, end) = match raw.strip_suffix('\n') {
        Some(body) => (body, "\n"),
        None => (raw, ""),
    };
    let trimmed = body.trim_start();
    let mut out: Vec<char> = Vec::with_capacity(raw.len());
    if !(trimmed.starts_with("```") || trimmed.starts_with("~~~") || is_table_rule(trimmed)) {
        inline(block_marks(trimmed), &mut out);
    }
    out.extend(end.chars());
    out.into_iter()
}

/// A table's rule under its header: `| --- | :--: |`.
fn is_table_rule(line: &str) -> bool {
    line.contains('-')
        && line.contains('|')
        && line
            .chars()
            .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// The line after its quote marks, heading marks, list marker and task box.
fn block_marks(mut line: &str) -> &str {
    loop {
        let before = line;
        line = line.trim_start();
        if let Some(rest) = line.strip_prefix('>') {
            line = rest;
        }
        let hashes = line.len() - line.trim_start_matches('#').len();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t']) {
            line = &line[hashes..];
        }
        for bullet in ["- ", "* ", "+ "] {
            if let Some(rest) = line.strip_prefix(bullet) {
                line = rest;
            }
        }
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if (1..=9).contains(&digits)
            && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
        {
            line = &line[digits + 2..];
        }
        for box_ in ["[ ] ", "[x] ", "[X] "] {
            if let Some(rest) = line.strip_prefix(box_) {
                line = rest;
            }
        }
        if line == before {
            return line;
        }
    }
}

/// Emphasis, code and strike marks, table pipes, link brackets and addresses
/// left out; a backslash-escaped character kept as itself.
fn inline(line: &str, out: &mut Vec<char>) {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        match c {
            '\\' if chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) => {
                out.push(chars[i + 1]);
                i += 1;
            }
            '*' | '`' | '~' => {}
            // Inside a word (snake_case) it is text; at either edge, emphasis.
            '_' if word(i.checked_sub(1)) && word(Some(i + 1)) => out.push(c),
            '_' => {}
            '|' => out.push(' '),
            '!' if chars.get(i + 1) == Some(&'[') => {}
            '[' => {}
            ']' if chars.get(i + 1) == Some(&'(') => {
                // `](address)`: the address is not what the reader sees.
                match chars[i..].iter().position(|&c| c == ')') {
                    Some(close) => i += close,
                    None => i = chars.len(),
                }
            }
            ']' => {}
            c => out.push(c),
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::chars;

    fn plain(text: &str) -> String {
        chars(text).collect()
    }

    #[test]
    fn headings_emphasis_code_and_lists_lose_their_marks() {
        assert_eq!(plain("## Setting up\n"), "Setting up\n");
        assert_eq!(
            plain("Use **bold** and _this_ and `code`."),
            "Use bold and this and code."
        );
        assert_eq!(
            plain("- [x] done\n1. first\n> quoted"),
            "done\nfirst\nquoted"
        );
        assert_eq!(
            plain("keep snake_case and 2 - 1"),
            "keep snake_case and 2 - 1"
        );
        assert_eq!(plain("a \\*literal\\* star"), "a *literal* star");
    }

    #[test]
    fn fences_table_rules_pipes_and_link_addresses_go() {
        assert_eq!(plain("```rust\nlet x = 1;\n```\n"), "\nlet x = 1;\n\n");
        assert_eq!(
            plain("| name | size |\n| --- | ---: |\n| a | 1 |"),
            "  name   size  \n\n  a   1  "
        );
        assert_eq!(
            plain("see [the guide](https://example.org/x) and ![a cat](cat.png)"),
            "see the guide and a cat"
        );
        assert_eq!(plain("a [broken](link"), "a broken");
    }

    #[test]
    fn plain_text_is_left_as_it_is() {
        let text = "Plain words, numbers 1.5 and 3 > 2, CJK 全文検索.\nSecond line";
        assert_eq!(plain(text), text);
    }
}
