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

/// One character, lower-cased and without its accent (Latin letters), so that
/// "Café" is found by "cafe" as the word index finds it.
fn fold(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let c = c.to_lowercase().next().unwrap_or(c);
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' => 'i',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ś' | 'š' | 'ş' => 's',
        'ť' | 'ţ' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        'ł' => 'l',
        'ř' => 'r',
        'ğ' => 'g',
        c => c,
    }
}

/// `text` folded as the trigram index folds it (case and Latin accents), so
/// that one folded text holds another exactly when the index would match it.
pub fn folded(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars().map(fold).collect()
}

/// Whether `text` holds `needle` (already folded) once folded, when that can be
/// told without folding it: an ASCII needle found in the raw text, case aside,
/// is there (ASCII letters fold to their lower case, and no byte of a longer
/// UTF-8 character is ASCII); not found in ASCII text, it is not. `None`: the
/// text must be folded to tell (accented letters may fold into the needle).
/// Folding 64 KB of accented text costs ~0.5 ms; this scan a few µs.
pub fn holds_without_folding(text: &str, needle: &str) -> Option<bool> {
    let (hay, n) = (text.as_bytes(), needle.as_bytes());
    if !needle.is_ascii() {
        return None;
    }
    let Some((&first, rest)) = n.split_first() else {
        return Some(true);
    };
    let found = hay.len() >= n.len()
        && (0..=hay.len() - n.len()).any(|i| {
            hay[i].to_ascii_lowercase() == first
                && hay[i + 1..i + n.len()].eq_ignore_ascii_case(rest)
        });
    match found {
        true => Some(true),
        false if text.is_ascii() => Some(false),
        false => None,
    }
}

/// Where `needle` occurs in `hay` (both folded), by char index, left to right.
fn occurrences(hay: &[char], needle: &[char]) -> impl Iterator<Item = usize> {
    let n = needle.len();
    (0..hay.len().saturating_sub(n.max(1) - 1))
        .filter(move |&i| n > 0 && hay[i] == needle[0] && hay[i..i + n] == *needle)
}

/// All of `text` (a title) with every occurrence of any of `needles` between
/// `open` and `close`, case and accents folded as in `around`; empty when none
/// occurs.
pub fn mark_all(text: &str, needles: &[String], open: &str, close: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let folded: Vec<char> = chars.iter().map(|&c| fold(c)).collect();
    let mut marks = vec![0u8; chars.len()];
    for n in needles {
        let n: Vec<char> = n.chars().map(fold).collect();
        for i in occurrences(&folded, &n) {
            marks[i] |= 1;
            marks[i + n.len() - 1] |= 2;
        }
    }
    if marks.iter().all(|&m| m == 0) {
        return String::new();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut depth = 0;
    for (i, &c) in chars.iter().enumerate() {
        if marks[i] & 1 != 0 {
            if depth == 0 {
                out.push_str(open);
            }
            depth += 1;
        }
        out.push(c);
        if marks[i] & 2 != 0 && depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push_str(close);
            }
        }
    }
    if depth > 0 {
        out.push_str(close);
    }
    out
}

/// About `WORDS_IN_ALL` words of `text` around the first occurrence of any of
/// `needles` (already lower-case), with every occurrence in the window between
/// `open` and `close`; the start of the text when none occurs.
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
/// a match and its window lie inside it.
fn window(
    text: &str,
    needles: &[String],
    (open, close): (&str, &str),
    cut: bool,
) -> Option<String> {
    let needles: Vec<Vec<char>> = needles
        .iter()
        .map(|n| n.chars().map(fold).collect::<Vec<_>>())
        .filter(|n| !n.is_empty())
        .collect();
    // Fold only as far as the first match and a window after it.
    let (mut chars, mut folded) = (Vec::new(), Vec::new());
    let mut first: Option<usize> = None;
    // What a reader sees of the Markdown: no `##`, `**`, fences or table pipes.
    let mut rest = super::plain::chars(text);
    for c in rest.by_ref() {
        chars.push(c);
        folded.push(fold(c));
        match first {
            None => {
                first = needles
                    .iter()
                    .filter(|n| folded.ends_with(n))
                    .map(|n| folded.len() - n.len())
                    .min();
            }
            Some(at) if folded.len() > at + 4096 => break,
            Some(_) => {}
        }
        if chars.len() >= SCAN_CHARS {
            break;
        }
    }
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
    let mut marks = vec![0u8; end - start];
    for n in &needles {
        for i in occurrences(&folded[start..end], n) {
            marks[i] |= 1;
            marks[i + n.len() - 1] |= 2;
        }
    }
    let mut out = String::with_capacity((end - start) * 2 + 8);
    if start > 0 {
        out.push('…');
    }
    let mut depth = 0;
    for (i, &c) in chars[start..end].iter().enumerate() {
        if marks[i] & 1 != 0 {
            if depth == 0 {
                out.push_str(open);
            }
            depth += 1;
        }
        out.push(if c.is_whitespace() { ' ' } else { c });
        if marks[i] & 2 != 0 && depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push_str(close);
            }
        }
    }
    if depth > 0 {
        out.push_str(close);
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    if end < chars.len() || more_text {
        out.push('…');
    }
    Some(out)
}

/// Whether `start`, the start of a text as a search reads it, was cut from
/// a longer text.
pub fn is_cut(start: &str) -> bool {
    start.len() > START_CHARS && start.chars().nth(START_CHARS).is_some()
}

/// The snippet of the hit `id` from `start`, the start of its text as the
/// search read it (`around_start`); when its match lies further in, the text
/// is read again, up to `SCAN_CHARS`. A text gone meanwhile, or a failed read
/// (logged), shows the start that was read.
pub async fn cut(
    read: &impl crate::db::Conn,
    (id, start): (&str, &str),
    needles: &[String],
    (open, close): (&str, &str),
) -> String {
    if let Some(s) = around_start(start, needles, open, close) {
        return s;
    }
    let text = match crate::db::search::text_start(read, id, SCAN_CHARS as i32).await {
        Ok(text) => text,
        Err(e) => {
            tracing::warn!(error = %e, "could not read a search hit's text");
            None
        }
    };
    around(text.as_deref().unwrap_or(start), needles, open, close)
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

    fn holds(hay: &str, needle: &str) -> bool {
        folded(hay).contains(&folded(needle))
    }

    #[test]
    fn a_needle_is_told_in_raw_text_when_folding_cannot_change_the_answer() {
        assert_eq!(
            holds_without_folding("The ARCHIVE room", "rchiv"),
            Some(true)
        );
        assert_eq!(holds_without_folding("Café ARCHIVE", "rchiv"), Some(true));
        assert_eq!(
            holds_without_folding("plain text only", "rchiv"),
            Some(false)
        );
        // Accented text may fold into the needle: it must be folded to tell.
        assert_eq!(holds_without_folding("un café", "cafe"), None);
        assert!(folded("un café").contains("cafe"));
        assert_eq!(holds_without_folding("abc", "ç"), None);
        assert_eq!(holds_without_folding("ab", "abc"), Some(false));
    }

    #[test]
    fn holds_folds_case_and_accents_and_wants_the_exact_sequence() {
        assert!(holds("A Café in Berlin", "cafe in"));
        assert!(holds("GARDEN ledger", "den led"));
        assert!(holds("全文検索エンジン", "文検索"));
        assert!(!holds("the garden, the ledger", "den led"));
        assert!(!holds("abc bcd", "abcd"));
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
    fn overlapping_matches_make_one_mark() {
        assert_eq!(snip("banana", &["ana"]), "b[anana]");
    }
}
