//! Search snippets cut in Rust from the document text. FTS5's `snippet()`
//! re-tokenises the whole document for every hit: measured here, ~1.7 ms per
//! 64 KB document, 50 hits to a page. Finding the first place a search word
//! occurs and cutting a window around it costs microseconds.

use crate::db::search::{SCAN_CHARS, START_CHARS};

/// Words shown before the first match, and in all.
const WORDS_BEFORE: usize = 8;
const WORDS_IN_ALL: usize = 28;
/// The same bounds in characters, for text with few spaces (long URLs, base64,
/// CJK): a page of fifty results stays small whatever the documents hold.
const CHARS_BEFORE: usize = 80;
const CHARS_IN_ALL: usize = 320;

mod fold;
mod page;

use fold::{fold, occurrences};
pub use fold::{folded, holds};
pub use page::fill;

/// All of `text` (a title) with every occurrence of any of `needles` between
/// `open` and `close`, case and accents folded as in `around`; empty when none
/// occurs.
pub fn mark_all(text: &str, needles: &[String], open: &str, close: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let marks = marks(&chars, &folded_needles(needles));
    if marks.iter().all(|&m| m == 0) {
        return String::new();
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_marked(&mut out, &chars, &marks, (open, close), |c| c);
    out
}

fn folded_needles(needles: &[String]) -> Vec<Vec<char>> {
    needles
        .iter()
        .map(|n| n.chars().map(fold).collect::<Vec<_>>())
        .filter(|n| !n.is_empty())
        .collect()
}

/// For each of `chars`: bit 1 where an occurrence of a needle starts, bit 2
/// where one ends (case and accents folded).
fn marks(chars: &[char], needles: &[Vec<char>]) -> Vec<u8> {
    let folded: Vec<char> = chars.iter().map(|&c| fold(c)).collect();
    let mut marks = vec![0u8; chars.len()];
    for n in needles {
        for i in occurrences(&folded, n) {
            marks[i] |= 1;
            marks[i + n.len() - 1] |= 2;
        }
    }
    marks
}

/// `chars`, each through `show`, with each marked run between `open` and
/// `close` (overlapping runs make one).
fn push_marked(
    out: &mut String,
    chars: &[char],
    marks: &[u8],
    (open, close): (&str, &str),
    show: impl Fn(char) -> char,
) {
    let mut depth = 0;
    for (&c, &mark) in chars.iter().zip(marks) {
        if mark & 1 != 0 {
            if depth == 0 {
                out.push_str(open);
            }
            depth += 1;
        }
        out.push(show(c));
        if mark & 2 != 0 && depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push_str(close);
            }
        }
    }
    if depth > 0 {
        out.push_str(close);
    }
}

/// About `WORDS_IN_ALL` words of `text` around the first occurrence of any of
/// `needles` (already lower-case), with every occurrence in the window between
/// `open` and `close`; the start of the text when none occurs in its first
/// `SCAN_CHARS` characters.
pub fn around(text: &str, needles: &[String], open: &str, close: &str) -> String {
    window(text, needles, (open, close), false).unwrap_or_default()
}

/// The same snippet from `text`, the start of a longer document (a search
/// reads `db::search::START_CHARS` + 1 characters: one more tells it is cut),
/// or `None` when the start holds no match with its whole window, so that the
/// caller reads further.
pub fn around_start(text: &str, needles: &[String], open: &str, close: &str) -> Option<String> {
    window(text, needles, (open, close), is_cut(text))
}

/// `around`, for a `text` that is `cut` from a longer one: `None` then unless
/// a match and its window lie inside it. What a reader sees of the Markdown
/// (no `##`, `**`, fences or table pipes: `plain::chars`) is made of the lines
/// around the first match only; the lines before it are only looked at.
fn window(
    text: &str,
    needles: &[String],
    (open, close): (&str, &str),
    cut: bool,
) -> Option<String> {
    let needles = folded_needles(needles);
    // `chars` from the start of a line `from`, with the first match at `first`
    // and at least CHARS_BEFORE characters before it (or the text's start).
    let (from, first) = match first_match(text, &needles) {
        Some((line, at)) => {
            let (from, at) = back_up(text, line, at);
            (from, Some(at))
        }
        None => (0, None),
    };
    let mut rest = super::plain::chars(&text[from..]);
    let chars: Vec<char> = rest
        .by_ref()
        .take(first.unwrap_or(0) + CHARS_IN_ALL + 2)
        .collect();
    let more_text = cut || rest.next().is_some();
    let is_space = |i: usize| chars[i].is_whitespace();
    // Back up WORDS_BEFORE words from the first match, then forward to the end.
    let mut start = first.unwrap_or(0);
    let mut words = 0;
    let earliest = start.saturating_sub(CHARS_BEFORE);
    while start > earliest && words < WORDS_BEFORE {
        start -= 1;
        if is_space(start) && start > 0 && !is_space(start - 1) {
            words += 1;
        }
    }
    while start < chars.len() && is_space(start) {
        start += 1;
    }
    let mut end = start;
    let mut words = 0;
    while end < chars.len() && words < WORDS_IN_ALL && end - start < CHARS_IN_ALL {
        if is_space(end) && end > 0 && !is_space(end - 1) {
            words += 1;
        }
        end += 1;
    }
    if cut && (first.is_none() || end >= chars.len()) {
        return None;
    }
    let shown = &chars[start..end];
    let mut out = String::with_capacity(shown.len() * 2 + 8);
    if start > 0 || from > 0 {
        out.push('…');
    }
    let marks = marks(shown, &needles);
    let flat = |c: char| if c.is_whitespace() { ' ' } else { c };
    push_marked(&mut out, shown, &marks, (open, close), flat);
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    if end < chars.len() || more_text {
        out.push('…');
    }
    Some(out)
}

/// The first match of `needles` in what a reader sees of the first
/// `SCAN_CHARS` characters of `text`: the byte where its line starts and the
/// character in that line's `plain::chars` where it starts (of the matches in
/// the line, the one that ends first). Only a line where a quick look over the
/// whole text (`plain::loose`) finds a needle is made plain: ~1 ns a byte,
/// where making every line plain cost ~20.
fn first_match(text: &str, needles: &[Vec<char>]) -> Option<(usize, usize)> {
    let limit = match text.len() > SCAN_CHARS {
        true => text
            .char_indices()
            .nth(SCAN_CHARS)
            .map_or(text.len(), |(at, _)| at),
        false => text.len(),
    };
    let text = &text[..limit];
    let strings: Vec<String> = needles.iter().map(|n| n.iter().collect()).collect();
    let mut loose = String::new();
    // A block of whole lines at a time: a match near the start costs that
    // block, not the whole text.
    let mut block = 0;
    while block < text.len() {
        let mut end = (block + LOOSE_BLOCK).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let end = text[end..].find('\n').map_or(text.len(), |e| end + e + 1);
        let lines = &text[block..end];
        super::plain::loose(lines, fold, &mut loose);
        if let Some((line, at)) = first_in(lines, &loose, needles, &strings) {
            return Some((block + line, at));
        }
        block = end;
    }
    None
}

/// Bytes of text made loose at a time by `first_match`.
const LOOSE_BLOCK: usize = 8_192;

/// `first_match` in `text`, whole lines, of which `loose` is the loose look.
fn first_in(
    text: &str,
    loose: &str,
    needles: &[Vec<char>],
    strings: &[String],
) -> Option<(usize, usize)> {
    // The same line of `text` and of `loose` (each starts after as many
    // line ends in both).
    let (mut line, mut loose_line) = (0, 0);
    loop {
        let rest = &loose[loose_line..];
        let at = loose_line + strings.iter().filter_map(|n| rest.find(n.as_str())).min()?;
        for _ in 0..loose.as_bytes()[loose_line..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
        {
            line += text[line..].find('\n')? + 1;
        }
        loose_line = at
            - loose[..at]
                .bytes()
                .rev()
                .take_while(|&b| b != b'\n')
                .count();
        let end = text[line..]
            .find('\n')
            .map_or(text.len(), |end| line + end + 1);
        let folded: Vec<char> = super::plain::chars(&text[line..end]).map(fold).collect();
        let found = needles
            .iter()
            .filter_map(|n| occurrences(&folded, n).next().map(|at| (at + n.len(), at)))
            .min();
        if let Some((_, at)) = found {
            return Some((line, at));
        }
        // Not in what a reader sees: on from the next line.
        loose_line += loose[loose_line..].find('\n')? + 1;
        line = end;
    }
}

/// Where to start making the text plain so that at least CHARS_BEFORE
/// characters come before the match at `at` in the line starting at `line`
/// (or the text's start): that line start and the match's place after it.
fn back_up(text: &str, mut line: usize, mut at: usize) -> (usize, usize) {
    while at <= CHARS_BEFORE && line > 0 {
        let before = text[..line - 1].rfind('\n').map_or(0, |i| i + 1);
        at += super::plain::chars(&text[before..line]).count();
        line = before;
    }
    (line, at)
}

/// Whether `start`, the start of a text as a search reads it, was cut from
/// a longer text.
fn is_cut(start: &str) -> bool {
    start.len() > START_CHARS && start.chars().nth(START_CHARS).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_of_a_text_gives_its_snippet_only_when_it_holds_the_match_and_window() {
        let needles = vec!["needle".to_owned()];
        let early = format!("a needle then {}", "words go on ".repeat(2_000));
        let start: String = early.chars().take(START_CHARS + 1).collect();
        let cut = around_start(&start, &needles, "[", "]").expect("found at the start");
        assert_eq!(cut, around(&early, &needles, "[", "]"));
        assert!(cut.ends_with('…'));
        let late = format!("{}needle", "x ".repeat(START_CHARS));
        let start: String = late.chars().take(START_CHARS + 1).collect();
        assert_eq!(around_start(&start, &needles, "[", "]"), None);
        let edge = format!("{}needle and words", "x ".repeat(START_CHARS / 2 - 4));
        let start: String = edge.chars().take(START_CHARS + 1).collect();
        assert_eq!(around_start(&start, &needles, "[", "]"), None, "window cut");
        // A short text is the whole text: no match is the start, not a re-read.
        assert_eq!(
            around_start("no match here", &needles, "[", "]").as_deref(),
            Some("no match here")
        );
    }

    fn snip(text: &str, needles: &[&str]) -> String {
        let needles: Vec<String> = needles.iter().map(|s| s.to_string()).collect();
        around(text, &needles, "[", "]")
    }

    #[test]
    fn marks_the_words_around_the_first_match() {
        let text = format!(
            "{} the red fox ran {}",
            "lead ".repeat(50),
            "tail ".repeat(50)
        );
        let s = snip(&text, &["fox"]);
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("the red [fox] ran"), "{s}");
        assert!(s.split_whitespace().count() <= WORDS_IN_ALL + 2, "{s}");
    }

    #[test]
    fn case_and_accents_fold_but_the_text_shows_as_written() {
        assert_eq!(snip("Un Café noir", &["cafe"]), "Un [Café] noir");
        assert_eq!(snip("ARCHIVE", &["rchiv"]), "A[RCHIV]E");
    }

    #[test]
    fn no_match_shows_the_start_and_unicode_is_safe() {
        assert_eq!(snip("日本語の文書です", &["xyz"]), "日本語の文書です");
        assert_eq!(snip("全文検索の話", &["検索"]), "全文[検索]の話");
        assert_eq!(snip("", &["a"]), "");
        assert_eq!(snip("abc", &[""]), "abc");
    }

    #[test]
    fn text_without_spaces_gives_a_bounded_snippet() {
        let text = format!("{}needle{}", "x".repeat(30_000), "y".repeat(30_000));
        let s = snip(&text, &["needle"]);
        assert!(
            s.chars().count() <= CHARS_IN_ALL + 4,
            "{} chars",
            s.chars().count()
        );
        assert!(s.contains("[needle]"), "{s}");
        assert!(snip(&"z".repeat(60_000), &["q"]).chars().count() <= CHARS_IN_ALL + 2);
    }

    #[test]
    fn a_title_is_marked_whole_and_as_written() {
        let needles = vec!["cafe".to_string(), "plan".to_string()];
        assert_eq!(
            mark_all("The *Café* plan_b", &needles, "[", "]"),
            "The *[Café]* [plan]_b"
        );
        assert_eq!(mark_all("Nothing here", &needles, "[", "]"), "");
        assert_eq!(
            mark_all("Banana", &["ana".to_string()], "[", "]"),
            "B[anana]"
        );
    }

    #[test]
    fn the_first_match_is_the_first_a_reader_sees_however_the_lines_look() {
        let lead = "words before it ".repeat(40);
        // Marks inside the word: found as the reader reads it.
        let s = snip(&format!("{lead}\nthe **lam**bda form"), &["lambda"]);
        assert!(s.contains("the [lambda] form"), "{s}");
        // In a link's address, a fence's info or a list marker it is not seen:
        // the first match is the next one a reader sees.
        let text = format!(
            "{lead}\nsee [the page](https://lambda.example) and\n```lambda\n1. one\nlast lambda here"
        );
        let s = snip(&text, &["lambda", "1"]);
        assert!(s.contains("[lambda] here") && !s.contains("https"), "{s}");
        assert!(!s.contains("[1]"), "{s}");
        // An escaped bracket starts no address; an accent folds.
        let s = snip(&format!("{lead}\nan \\](Lambda) and"), &["lambda"]);
        assert!(s.ends_with("an ]([Lambda]) and"), "{s}");
        let s = snip(&format!("{lead}\nun CAFÉ noir"), &["cafe"]);
        assert!(s.ends_with("un [CAFÉ] noir"), "{s}");
    }

    #[test]
    fn a_match_past_the_scanned_characters_shows_the_start() {
        let text = format!("{} needle", "word ".repeat(SCAN_CHARS / 5));
        let s = snip(&text, &["needle"]);
        assert!(s.starts_with("word word") && !s.contains('['), "{s}");
    }

    #[test]
    fn a_match_many_lines_in_is_found_across_the_blocks_read() {
        // Accented lines put block ends inside characters; the match is on
        // a line past several blocks.
        let lead = "déjà vu, **bold** words here\n".repeat(LOOSE_BLOCK / 10);
        let s = snip(&format!("{lead}the *lam*bda line\nafter"), &["lambda"]);
        assert!(s.contains("the [lambda] line"), "{s}");
    }

    #[test]
    fn overlapping_matches_make_one_mark() {
        assert_eq!(snip("banana", &["ana"]), "b[anana]");
    }
}
