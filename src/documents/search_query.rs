//! What a search looks for and what it returns, on either engine: the user's
//! words cut into plain terms (never syntax), and the hits with their snippets.

use super::{cjk, snippet};

/// Longest query looked at; the rest is ignored rather than refused.
const MAX_QUERY_BYTES: usize = 512;
const MAX_TERMS: usize = 16;
pub(super) const OPEN: &str = "\u{E000}";
pub(super) const CLOSE: &str = "\u{E001}";

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Term {
    pub words: Vec<String>,
    pub phrase: bool,
}

/// FTS5 expressions for the word index and, where every word is long enough, the
/// trigram index (which finds parts of words).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translated {
    pub words: Option<String>,
    /// Every trigram of every term: the candidates for `substrings`.
    pub trigrams: Option<String>,
    /// What a hit inside words holds, each term's words as typed, lower-case,
    /// joined by a space: the trigram index keeps no positions, so a candidate's
    /// text is checked for each of these.
    pub substrings: Vec<String>,
    /// The words to mark in snippets, lower-case, one per script run.
    pub needles: Vec<String>,
}

pub(super) fn terms(input: &str) -> Vec<Term> {
    let mut end = input.len().min(MAX_QUERY_BYTES);
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = Vec::new();
    for (i, chunk) in input[..end].split('"').enumerate() {
        let words = |s: &str| -> Vec<String> {
            s.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect()
        };
        if i % 2 == 1 {
            let ws = words(chunk);
            if !ws.is_empty() {
                out.push(Term {
                    words: ws,
                    phrase: true,
                });
            }
        } else {
            out.extend(words(chunk).into_iter().map(|w| Term {
                words: vec![w],
                phrase: false,
            }));
        }
    }
    out.truncate(MAX_TERMS);
    out
}

/// Splits a token at script boundaries: ("windows", false), ("版", true).
pub(super) fn script_runs(word: &str) -> Vec<(String, bool)> {
    let mut runs: Vec<(String, bool)> = Vec::new();
    for c in word.chars() {
        let k = cjk::is_cjk(c);
        match runs.last_mut() {
            Some((s, kind)) if *kind == k => s.push(c),
            _ => runs.push((c.to_string(), k)),
        }
    }
    runs
}

/// What a query asks for, whatever the engine: runs of CJK characters (matched
/// by their neighbouring pairs) and words in order, each maybe a prefix.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unit {
    Cjk { grams: Vec<String>, prefix: bool },
    Words { words: Vec<String>, prefix: bool },
}

/// Each term's CJK runs, then its other words as one unit; the last plain
/// (unquoted) term is a prefix, as is a lone CJK character.
pub(super) fn units(terms: &[Term]) -> Vec<Unit> {
    let last = terms.len().saturating_sub(1);
    let mut out = Vec::new();
    for (i, term) in terms.iter().enumerate() {
        let mut latin = Vec::new();
        for w in &term.words {
            for (run, is_cjk) in script_runs(w) {
                if is_cjk {
                    let prefix = run.chars().count() == 1;
                    let grams = cjk::bigrams(&run);
                    out.push(Unit::Cjk { grams, prefix });
                } else {
                    latin.push(run);
                }
            }
        }
        if !latin.is_empty() {
            let prefix = i == last && !term.phrase;
            out.push(Unit::Words {
                words: latin,
                prefix,
            });
        }
    }
    out
}

pub fn translate(input: &str) -> Translated {
    let terms = terms(input);
    if terms.is_empty() {
        return Translated::default();
    }
    let star = |prefix: bool| if prefix { "*" } else { "" };
    let words: Vec<String> = units(&terms)
        .into_iter()
        .map(|unit| match unit {
            Unit::Cjk { grams, prefix } => {
                format!("cjk : \"{}\"{}", grams.join(" "), star(prefix))
            }
            Unit::Words { words, prefix } => format!("\"{}\"{}", words.join(" "), star(prefix)),
        })
        .collect();
    let long_enough = terms
        .iter()
        .all(|t| t.words.iter().all(|w| w.chars().count() >= 3));
    let substrings: Vec<String> = if long_enough {
        terms.iter().map(|t| t.words.join(" ")).collect()
    } else {
        Vec::new()
    };
    let trigrams = trigram_expr(&substrings);
    let needles = terms
        .iter()
        .flat_map(|t| t.words.iter())
        .flat_map(|w| script_runs(w).into_iter().map(|(run, _)| run))
        .collect();
    Translated {
        words: (!words.is_empty()).then(|| words.join(" AND ")),
        trigrams,
        substrings,
        needles,
    }
}

/// Most trigrams asked of the index for one search; a longer query's others are
/// left to the check of each candidate's text.
const MAX_TRIGRAMS: usize = 48;

/// `"gar" AND "ard" AND …`: each distinct three-character window of each
/// substring (terms are letters, digits and single spaces: nothing to escape).
fn trigram_expr(substrings: &[String]) -> Option<String> {
    let mut grams: Vec<String> = Vec::new();
    for s in substrings {
        let chars: Vec<char> = s.chars().collect();
        for w in chars.windows(3) {
            let gram: String = w.iter().collect();
            if !grams.contains(&gram) {
                grams.push(gram);
            }
        }
    }
    if grams.is_empty() {
        return None;
    }
    // Evenly spread over the query when it is long.
    let step = grams.len().div_ceil(MAX_TRIGRAMS);
    let picked: Vec<String> = grams
        .iter()
        .step_by(step)
        .map(|g| format!("\"{g}\""))
        .collect();
    Some(picked.join(" AND "))
}

/// A document a search found, with the text around the match.
#[derive(Debug, Clone)]
pub struct SearchHit {
    pub id: String,
    pub title: String,
    pub updated_at: i64,
    /// Document text around the match, not yet escaped, with the match between
    /// private-use marker characters (see `snippet_html`); the whole text as read.
    pub snippet: String,
    /// The title with the matches marked as in `snippet`; empty when the title
    /// holds none of the words.
    pub title_marked: String,
}
crate::db::from_row!(SearchHit { id, title, updated_at, snippet } defaults { title_marked });

impl SearchHit {
    /// The snippet as safe HTML: escaped, with matches in `<mark>`.
    pub fn snippet_html(&self) -> String {
        marked_html(&self.snippet)
    }

    /// The title as safe HTML, its matches in `<mark>`.
    pub fn title_html(&self) -> String {
        if self.title_marked.is_empty() {
            marked_html(&self.title)
        } else {
            marked_html(&self.title_marked)
        }
    }
}

/// Escaped, with the marker characters made `<mark>` elements.
fn marked_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    for c in text.chars() {
        match c {
            '\u{E000}' => out.push_str("<mark>"),
            '\u{E001}' => out.push_str("</mark>"),
            c => super::escape::push(&mut out, c),
        }
    }
    out
}

/// Marks the words in each hit's title.
pub(super) fn mark_titles(hits: &mut [SearchHit], needles: &[String]) {
    for hit in hits {
        hit.title_marked = snippet::mark_all(&hit.title, needles, OPEN, CLOSE);
    }
}

/// What a search found, and whether any of its queries failed. The user's words
/// are never syntax, so a failure is a bug: it is logged as an error, counted in
/// `/metrics`, and the page says so rather than "nothing found".
#[derive(Debug, Default)]
pub struct Found {
    pub hits: Vec<SearchHit>,
    pub failed: bool,
    /// The search indexes are still catching up with recent saves (or a whole
    /// import): some recent text may not be found yet.
    pub catching_up: bool,
}

impl Found {
    /// Adds the hits of one query, or notes its failure.
    pub(super) fn take(&mut self, result: Result<Vec<SearchHit>, crate::db::Error>, limit: i64) {
        match result {
            Ok(more) => add(&mut self.hits, more, limit),
            Err(e) => {
                tracing::error!(error = %e, "search query failed");
                crate::metrics::record_search_error();
                self.failed = true;
            }
        }
    }

    pub(super) fn is_full(&self, limit: i64) -> bool {
        self.hits.len() as i64 >= limit
    }
}

pub(super) fn add(hits: &mut Vec<SearchHit>, more: Vec<SearchHit>, limit: i64) {
    for hit in more {
        if (hits.len() as i64) < limit && !hits.iter().any(|h| h.id == hit.id) {
            hits.push(hit);
        }
    }
}

/// Each hit's snippet from the start of its text, which the search left in
/// `snippet` (`snippet::fill`).
pub(super) async fn fill(read: &impl crate::db::Conn, hits: &mut [SearchHit], needles: &[String]) {
    let mut snippets: Vec<(&str, &mut String)> = hits
        .iter_mut()
        .map(|h| (h.id.as_str(), &mut h.snippet))
        .collect();
    snippet::fill(read, &mut snippets, needles, (OPEN, CLOSE)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_are_quoted_and_the_last_is_a_prefix() {
        let t = translate("garden ledg");
        assert_eq!(t.words.as_deref(), Some(r#""garden" AND "ledg"*"#));
        assert_eq!(
            t.trigrams.as_deref(),
            Some(r#""gar" AND "ard" AND "rde" AND "den" AND "led" AND "edg""#)
        );
        assert_eq!(t.substrings, ["garden", "ledg"]);
    }

    #[test]
    fn a_phrase_is_looked_for_across_its_spaces() {
        let t = translate(r#""red fox""#);
        assert_eq!(
            t.trigrams.as_deref(),
            Some(r#""red" AND "ed " AND "d f" AND " fo" AND "fox""#)
        );
        assert_eq!(t.substrings, ["red fox"]);
        // A word shorter than three characters finds no part of a word.
        assert_eq!(translate("ox garden").trigrams, None);
    }

    #[test]
    fn a_long_query_asks_for_a_bounded_number_of_trigrams() {
        let digits: String = (100..250).map(|i| i.to_string()).collect();
        let t = translate(&digits);
        let expr = t.trigrams.unwrap();
        assert!(expr.matches(" AND ").count() < MAX_TRIGRAMS, "{expr}");
    }

    #[test]
    fn phrases_stay_phrases() {
        let t = translate(r#""red fox" den"#);
        assert_eq!(t.words.as_deref(), Some(r#""red fox" AND "den"*"#));
    }

    #[test]
    fn syntax_becomes_plain_text() {
        for input in [
            r#"title:foo NEAR(a b) -x OR "unbalanced"#,
            "'; DROP TABLE documents; --",
            "*",
            "\"\"\"",
            "^foo + bar",
        ] {
            let t = translate(input);
            for expr in t.words.iter().chain(t.trigrams.iter()) {
                let outside_quotes: String = expr.split('"').step_by(2).collect();
                assert!(
                    outside_quotes.chars().all(|c| " AND*:cjk".contains(c)),
                    "{input:?} -> {expr:?}"
                );
            }
        }
    }

    #[test]
    fn junk_and_emoji_give_no_query() {
        assert_eq!(translate("🎉🎉 !!! ***"), Translated::default());
        assert_eq!(translate(""), Translated::default());
    }

    #[test]
    fn cjk_runs_search_the_bigram_column() {
        let t = translate("全文検索");
        assert_eq!(t.words.as_deref(), Some(r#"cjk : "全文 文検 検索""#));
        let t = translate("Windows版");
        assert_eq!(t.words.as_deref(), Some(r#"cjk : "版"* AND "windows"*"#));
    }

    #[test]
    fn huge_input_is_cut_to_a_bounded_query() {
        let t = translate(&"word ".repeat(5000));
        assert_eq!(t.words.unwrap().matches("word").count(), MAX_TERMS);
    }

    #[test]
    fn snippets_are_escaped_with_marks() {
        let hit = SearchHit {
            id: String::new(),
            title: String::new(),
            updated_at: 0,
            snippet: "<b>\u{E000}fox\u{E001}</b>".into(),
            title_marked: String::new(),
        };
        assert_eq!(hit.snippet_html(), "&lt;b&gt;<mark>fox</mark>&lt;/b&gt;");
        let titled = SearchHit {
            title: "<i>Fox</i> & co".into(),
            title_marked: "<i>\u{E000}Fox\u{E001}</i> & co".into(),
            ..hit.clone()
        };
        assert_eq!(
            titled.title_html(),
            "&lt;i&gt;<mark>Fox</mark>&lt;/i&gt; &amp; co"
        );
        let unmarked = SearchHit {
            title_marked: String::new(),
            ..titled
        };
        assert_eq!(unmarked.title_html(), "&lt;i&gt;Fox&lt;/i&gt; &amp; co");
    }
}
