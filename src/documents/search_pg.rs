//! Search on PostgreSQL: the same terms as on SQLite (`search::terms`), turned into
//! a `tsquery` over the `words` column (GIN) and, where every word has three or
//! more characters, `LIKE` patterns over the folded text (pg_trgm GIN; the SQL is
//! in `db::search::postgres`). The user's
//! words are only ever bound as values; the terms hold letters and digits only, so
//! the `tsquery` text has no syntax of the user's in it.

use super::search_query::{Found, SearchHit, Term, Unit, script_runs, terms, units};
use super::{Caller, access};
use crate::db::Db;
use crate::db::search::Scope;
use crate::db::search::postgres::{self, Pass};

/// `tsquery` text: each term's words in order (`<->`), terms joined by `&`; the
/// last plain word is also a prefix; CJK runs match their bigrams.
pub(super) fn tsquery(terms: &[Term]) -> Option<String> {
    let parts: Vec<String> = units(terms)
        .into_iter()
        .map(|unit| {
            let (Unit::Cjk {
                grams: lexemes,
                prefix,
            }
            | Unit::Words {
                words: lexemes,
                prefix,
            }) = unit;
            let quoted: Vec<String> = lexemes.iter().map(|l| format!("'{l}'")).collect();
            format!(
                "({}{})",
                quoted.join(" <-> "),
                if prefix { ":*" } else { "" }
            )
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" & "))
}

/// Words first (ranked), then parts of words among recent documents, then all.
pub(super) fn passes(terms: &[Term]) -> Vec<Pass> {
    let mut out = Vec::new();
    if let Some(tsquery) = tsquery(terms) {
        out.push(Pass::Words { tsquery });
    }
    let long_enough = terms
        .iter()
        .all(|t| t.words.iter().all(|w| w.chars().count() >= 3));
    if long_enough && !terms.is_empty() {
        let values: Vec<String> = terms.iter().map(|t| t.words.join(" ")).collect();
        for recent in [true, false] {
            out.push(Pass::Parts {
                values: values.clone(),
                recent,
            });
        }
    }
    out
}

/// Matches ranked, newest first. Fewer than SQLite's `RANKED_AT_MOST`: PostgreSQL
/// reads each match's `tsvector` out of line (TOAST), ~0.1 ms each for 64 KB
/// documents, where FTS5 ranks from its index (`cargo bench --bench backends`).
const RANKED: i64 = 200;

/// Recent documents checked for a part of a word before the index is asked:
/// each check reads a document's text (~0.1 ms for 64 KB).
const RECENT_PARTS: i64 = 100;

/// Words in titles and text (ranked), then parts of words, among the documents
/// `actor` may read.
pub(super) async fn search(
    db: &Db,
    (input, scope): (&str, &Scope),
    limit: i64,
    actor: Caller<'_>,
) -> Found {
    let terms = terms(input);
    let needles: Vec<String> = terms
        .iter()
        .flat_map(|t| t.words.iter())
        .flat_map(|w| script_runs(w).into_iter().map(|(run, _)| run))
        .collect();
    let mut found = Found::default();
    for pass in passes(&terms) {
        if found.is_full(limit) {
            break;
        }
        // The terms hold letters and digits only, so an error is a bug, not the
        // user's fault: `Found::take` logs and counts it.
        let recent = match pass {
            Pass::Words { .. } => RANKED,
            Pass::Parts { .. } => RECENT_PARTS,
        };
        let viewer = (access::viewer(actor), scope);
        let mut hits = postgres::run::<SearchHit>(db, &pass, (limit, recent), viewer).await;
        if let Ok(hits) = &mut hits {
            hits.retain(|h| !found.hits.iter().any(|f| f.id == h.id));
            super::search_query::fill(&db.read, hits, &needles).await;
        }
        found.take(hits, limit);
    }
    super::search_query::mark_titles(&mut found.hits, &needles);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(words: &[&str], phrase: bool) -> Term {
        Term {
            words: words.iter().map(|w| w.to_string()).collect(),
            phrase,
        }
    }

    #[test]
    fn words_become_quoted_lexemes_with_a_prefix_last() {
        assert_eq!(
            tsquery(&[t(&["garden"], false), t(&["ledg"], false)]).as_deref(),
            Some("('garden') & ('ledg':*)")
        );
        assert_eq!(
            tsquery(&[t(&["red", "fox"], true)]).as_deref(),
            Some("('red' <-> 'fox')")
        );
    }

    #[test]
    fn cjk_runs_match_bigrams() {
        assert_eq!(
            tsquery(&[t(&["全文検索"], false)]).as_deref(),
            Some("('全文' <-> '文検' <-> '検索')")
        );
    }

    #[test]
    fn short_words_skip_the_substring_pass() {
        assert_eq!(passes(&[t(&["ab"], false)]).len(), 1);
        assert_eq!(passes(&[t(&["abc"], false)]).len(), 3);
        assert!(passes(&[]).is_empty());
    }
}
