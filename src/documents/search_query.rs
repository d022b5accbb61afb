//! What a search returns, on either engine: the hits with their snippets, and
//! what else the page says (a failure, an index catching up, a suggestion).

use super::snippet;

pub(super) const OPEN: &str = "\u{E000}";
pub(super) const CLOSE: &str = "\u{E001}";

/// A document a search found, with the text around the match.
#[derive(Debug, Clone, Default)]
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
    /// The attached file whose text holds the words (then `snippet` is from
    /// its `page`); empty when the document's own text does.
    pub file: String,
    pub page: i64,
}
crate::db::from_row!(SearchHit { id, title, updated_at, snippet } defaults { title_marked, file, page });

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
    /// The search as typed with misspelt words replaced by words the reader's
    /// documents hold ("Did you mean …"), when it found little.
    pub suggestion: Option<String>,
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
    fn snippets_are_escaped_with_marks() {
        let hit = SearchHit {
            id: String::new(),
            title: String::new(),
            updated_at: 0,
            snippet: "<b>\u{E000}fox\u{E001}</b>".into(),
            ..SearchHit::default()
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
