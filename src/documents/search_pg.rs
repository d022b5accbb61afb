//! Search on PostgreSQL: the same query as on SQLite (`search_terms::parse`),
//! turned into a `tsquery` over the `words` column (GIN) and, where every word
//! has three or more characters, `LIKE` patterns over the folded text (pg_trgm
//! GIN; the SQL is in `db::search::postgres`). The user's words are only ever
//! bound as values; the terms hold letters and digits only, so the `tsquery`
//! text has no syntax of the user's in it.

use super::search_query::{Found, SearchHit};
use super::search_terms::{Query, Term, Unit, needles};
use super::word_forms::{self, Forms};
use super::{Caller, access};
use crate::db::Db;
use crate::db::search::Scope;
use crate::db::search::postgres::{self, Pass};

/// One unit: its lexemes in order (`<->`), the last maybe a prefix (`:*`),
/// each in titles only where asked (weight `A`); a single word with other
/// `forms` matches them too.
fn unit_query(unit: &Unit, title: bool, forms: Option<&Forms>) -> String {
    let (Unit::Cjk {
        grams: lexemes,
        prefix,
    }
    | Unit::Words {
        words: lexemes,
        prefix,
    }) = unit;
    let weight = if title { "A" } else { "" };
    let last = lexemes.len().saturating_sub(1);
    let quoted: Vec<String> = lexemes
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let star = if *prefix && i == last { "*" } else { "" };
            let mark = if star.is_empty() && weight.is_empty() {
                ""
            } else {
                ":"
            };
            format!("'{l}'{mark}{star}{weight}")
        })
        .collect();
    let mut alts = vec![quoted.join(" <-> ")];
    if let (Unit::Words { words, .. }, [_], Some(forms)) = (unit, lexemes.as_slice(), forms) {
        let mark = if title { ":A" } else { "" };
        alts.extend(forms.of(&words[0]).map(|f| format!("'{f}'{mark}")));
    }
    format!("({})", alts.join(" | "))
}

fn term_query(term: &Term, forms: Option<&Forms>) -> Option<String> {
    let forms = forms.filter(|_| !term.phrase);
    let parts: Vec<String> = term
        .units()
        .iter()
        .map(|u| unit_query(u, term.title && matches!(u, Unit::Words { .. }), forms))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" & "))
}

fn any_of(parts: Vec<String>) -> Option<String> {
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(format!("({})", parts.join(" | "))),
    }
}

/// `tsquery` text: every clause (one of its terms) and none of the unwanted
/// terms; the last plain word is also a prefix; CJK runs match their bigrams.
pub(super) fn tsquery(q: &Query, forms: &Forms) -> Option<String> {
    let forms = (!forms.is_empty()).then_some(forms);
    let clauses: Vec<String> = q
        .all
        .iter()
        .filter_map(|c| any_of(c.iter().filter_map(|t| term_query(t, forms)).collect()))
        .collect();
    if clauses.is_empty() {
        return None;
    }
    let mut out = clauses.join(" & ");
    if let Some(not) = any_of(q.none.iter().filter_map(|t| term_query(t, None)).collect()) {
        out = format!("{out} & !{not}");
    }
    Some(out)
}

/// Words first (ranked), then parts of words among recent documents, then all.
pub(super) fn passes(q: &Query) -> Vec<Pass> {
    let mut out = Vec::new();
    if let Some(tsquery) = tsquery(q, &Forms::default()) {
        out.push(Pass::Words { tsquery });
    }
    let long_enough = |t: &&Term| t.words.iter().all(|w| w.chars().count() >= 3);
    if let Some(terms) = q
        .plain()
        .filter(|ts| !ts.is_empty() && ts.iter().all(long_enough))
    {
        let values: Vec<String> = terms.iter().map(|t| t.words.join(" ")).collect();
        let unwanted: Vec<String> = q.none.iter().map(|t| t.words.join(" ")).collect();
        for recent in [true, false] {
            out.push(Pass::Parts {
                values: values.clone(),
                unwanted: unwanted.clone(),
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

/// Words in titles and text (ranked), then other forms of the words, then
/// parts of words, among the documents `actor` may read.
pub(super) async fn search(
    db: &Db,
    (q, scope): (&Query, &Scope),
    limit: i64,
    actor: Caller<'_>,
) -> Found {
    let mut needles = needles(q);
    let mut found = Found::default();
    let viewer = (access::viewer(actor), scope);
    let mut passes = passes(q);
    let mut at = 0;
    while at < passes.len() && !found.is_full(limit) {
        let pass = &passes[at];
        at += 1;
        // The terms hold letters and digits only, so an error is a bug, not the
        // user's fault: `Found::take` logs and counts it.
        let recent = match pass {
            Pass::Words { .. } => RANKED,
            Pass::Parts { .. } => RECENT_PARTS,
        };
        let mut hits = postgres::run::<SearchHit>(db, pass, (limit, recent), viewer).await;
        if let Ok(hits) = &mut hits {
            hits.retain(|h| !found.hits.iter().any(|f| f.id == h.id));
            super::search_query::fill(&db.read, hits, &needles).await;
        }
        found.take(hits, limit);
        // After the exact words, their other forms.
        if at == 1 && matches!(passes[0], Pass::Words { .. }) && !found.is_full(limit) {
            let forms = word_forms::forms(db, q).await;
            if let Some(tsquery) = tsquery(q, &forms).filter(|_| !forms.is_empty()) {
                passes.insert(1, Pass::Words { tsquery });
                needles.extend(forms.all().map(str::to_string));
            }
        }
    }
    super::search_query::mark_titles(&mut found.hits, &needles);
    found
}

/// A document `viewer` may read that holds `word` (letters only) whole.
pub(super) async fn holding(
    db: &Db,
    word: &str,
    viewer: (Option<i64>, &Scope),
) -> Result<Vec<SearchHit>, crate::db::Error> {
    let pass = Pass::Words {
        tsquery: format!("'{word}'"),
    };
    postgres::run::<SearchHit>(db, &pass, (1, RANKED), viewer).await
}

#[cfg(test)]
mod tests {
    use super::super::search_terms::parse;
    use super::*;

    fn tsq(input: &str) -> Option<String> {
        tsquery(&parse(input), &Forms::default())
    }

    #[test]
    fn words_become_quoted_lexemes_with_a_prefix_last() {
        assert_eq!(
            tsq("garden ledg").as_deref(),
            Some("('garden') & ('ledg':*)")
        );
        assert_eq!(tsq("\"red fox\"").as_deref(), Some("('red' <-> 'fox')"));
    }

    #[test]
    fn operators_become_tsquery_operators() {
        assert_eq!(
            tsq("tomato OR basil -\"red fox\" title:plan").as_deref(),
            Some("(('tomato') | ('basil')) & ('plan':*A) & !('red' <-> 'fox')")
        );
        assert_eq!(tsq("-tomato"), None);
        let mut forms = Forms::default();
        forms.add("tomatoes", vec!["tomato".into()]);
        assert_eq!(
            tsquery(&parse("tomatoes x"), &forms).as_deref(),
            Some("('tomatoes' | 'tomato') & ('x':*)")
        );
    }

    #[test]
    fn cjk_runs_match_bigrams() {
        assert_eq!(
            tsq("全文検索").as_deref(),
            Some("('全文' <-> '文検' <-> '検索')")
        );
    }

    #[test]
    fn short_words_and_alternatives_skip_the_substring_pass() {
        assert_eq!(passes(&parse("ab")).len(), 1);
        assert_eq!(passes(&parse("abc")).len(), 3);
        assert_eq!(passes(&parse("abc OR def")).len(), 1);
        assert!(passes(&parse("")).is_empty());
    }
}
