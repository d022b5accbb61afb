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

/// A quick look before `chars`, in one pass over the whole `text`: every
/// character `chars` may leave out of a line's words left out (emphasis and
/// code marks, brackets, escapes, link addresses as `chars` finds them), ASCII
/// letters lower-cased and other characters through `fold_other`, line ends
/// kept, into `out`. Any run of letters that `chars` shows of a line, folded,
/// is in the same line of `out`; `out` may hold more (block marks, fences, the
/// letters around a mark inside a word), so a line found here is then made
/// plain to be sure. Runs of ordinary ASCII are copied and lower-cased whole.
pub fn loose(text: &str, fold_other: impl Fn(char) -> char, out: &mut String) {
    out.clear();
    out.reserve(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..]
            .iter()
            .position(|&b| MARKS[usize::from(b)])
            .unwrap_or(bytes.len() - i);
        if run > 0 {
            let from = out.len();
            out.push_str(&text[i..i + run]);
            out[from..].make_ascii_lowercase();
            i += run;
            continue;
        }
        let b = bytes[i];
        if !b.is_ascii() {
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            out.push(fold_other(c));
            i += c.len_utf8();
            continue;
        }
        match b {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 1,
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                // As `inline` skips an address: to its `)`, or the line's end.
                match bytes[i..].iter().position(|&c| c == b')' || c == b'\n') {
                    Some(end) if bytes[i + end] == b')' => i += end,
                    Some(end) => i += end - 1,
                    None => i = bytes.len(),
                }
            }
            b'\\' => out.push('\\'),
            _ => {}
        }
        i += 1;
    }
}

/// The bytes `loose` stops at: the marks it leaves out, and every byte of a
/// character that is not ASCII.
const MARKS: [bool; 256] = {
    let mut marks = [false; 256];
    let mut b = 128;
    while b < 256 {
        marks[b] = true;
        b += 1;
    }
    let mut i = 0;
    while i < b"*`~_[]!\\".len() {
        marks[b"*`~_[]!\\"[i] as usize] = true;
        i += 1;
    }
    marks
};

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
    use super::{chars, loose};

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
    fn a_loose_look_keeps_every_word_the_plain_text_shows() {
        let text = "## A **bo**ld `Code_Word` [link](https://x.org/Hidden) \\[not\\] \\](Kept)\n\
                    | Ünïcode | cell |\n```Fence\n- [ ] box\n[open](no close";
        let mut out = String::new();
        loose(text, |c| c.to_lowercase().next().unwrap_or(c), &mut out);
        assert_eq!(
            out,
            "## a bold codeword link not (kept)\n| ünïcode | cell |\nfence\n-   box\nopen"
        );
        for (raw, shown) in text
            .split('\n')
            .zip(chars(text).collect::<String>().split('\n'))
        {
            let mut line = String::new();
            loose(raw, |c| c.to_lowercase().next().unwrap_or(c), &mut line);
            for word in shown
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
            {
                assert!(line.contains(&word.to_lowercase()), "{word:?} in {line:?}");
            }
        }
    }

    #[test]
    fn plain_text_is_left_as_it_is() {
        let text = "Plain words, numbers 1.5 and 3 > 2, CJK 全文検索.\nSecond line";
        assert_eq!(plain(text), text);
    }
}
