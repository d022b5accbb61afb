//! Search on PostgreSQL: the same terms as on SQLite (`search::terms`), turned into
//! a `tsquery` over the `words` column (GIN) and, where every word has three or
//! more characters, `LIKE` patterns over the folded text (pg_trgm GIN). The user's
//! words are only ever bound as values; the terms hold letters and digits only, so
//! the `tsquery` text has no syntax of the user's in it.

use super::search_query::{CLOSE, Found, Hit, OPEN, Term, Unit, script_runs, terms, units};
use super::{Actor, access, snippet};
use crate::db::Db;

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

/// The text of the `$2` best hits only: the hits are chosen by `seq` and rank
/// alone, so no other document's text is read.
fn with_text(top: &str) -> String {
    format!(
        "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, 65536) AS snippet
         FROM ({top}) AS top JOIN documents d ON d.seq = top.seq
         ORDER BY top.rank DESC, d.seq DESC"
    )
}

/// Newest `RANKED` matches, ranked with the title above the text.
fn words_sql() -> String {
    with_text(&format!(
        "SELECT seq, rank FROM (
             SELECT d.seq, ts_rank('{{0.1, 0.2, 0.4, 1.0}}', d.words, q) AS rank
             FROM documents d, to_tsquery('simple', quire_fold($1)) AS q
             WHERE d.words @@ q AND d.deleted_at IS NULL AND {visible}
             ORDER BY d.seq DESC LIMIT $3) AS recent
         ORDER BY rank DESC, seq DESC LIMIT $2",
        visible = access::visible("$4")
    ))
}

/// Every term (`$5`...) appears inside the folded title and text; `$1` (the
/// `tsquery` of the word pass) is empty here.
fn trigrams_sql(count: usize, recent: bool) -> String {
    let conditions: Vec<String> = (0..count)
        .map(|i| format!("d.folded LIKE '%' || quire_fold(${}) || '%'", i + 5))
        .collect();
    let visible = access::visible("$4");
    let from = if recent {
        // The newest `$3` documents the viewer may read, newest first, stopping
        // at the `$2`th found: a part of a word found almost everywhere costs a
        // few checks.
        format!(
            "(SELECT * FROM documents d WHERE d.deleted_at IS NULL AND {visible}
              ORDER BY d.seq DESC LIMIT $3) AS d"
        )
    } else {
        // Every document, through the trigram index alone (the fence keeps the
        // planner from walking rows in order instead): quick where the part is
        // rare, which is when the newest documents did not have enough of it.
        format!(
            "(SELECT seq FROM documents d WHERE {} OFFSET 0) AS m
             JOIN documents d ON d.seq = m.seq",
            conditions.join(" AND ")
        )
    };
    with_text(&format!(
        "SELECT d.seq, 0 AS rank FROM {from}
         WHERE {} AND d.deleted_at IS NULL AND {visible} AND $1 = ''
         ORDER BY d.seq DESC LIMIT $2",
        conditions.join(" AND ")
    ))
}

/// One query of a search: its SQL, the `tsquery` (`$1`), how many recent
/// documents it looks at (`$3`), the terms (`$5`...), and whether the planner
/// must be kept off sequential scans (it counts the main table's pages only, not
/// the out-of-line text a LIKE reads, so it walks every row's text where the
/// trigram index would answer in a millisecond).
pub(super) struct Pass {
    sql: String,
    tsquery: String,
    recent: i64,
    values: Vec<String>,
    index_only: bool,
}

/// Words first (ranked), then parts of words among recent documents, then all.
pub(super) fn passes(terms: &[Term]) -> Vec<Pass> {
    let mut out = Vec::new();
    if let Some(q) = tsquery(terms) {
        out.push(Pass {
            sql: words_sql(),
            tsquery: q,
            recent: RANKED,
            values: Vec::new(),
            index_only: false,
        });
    }
    let long_enough = terms
        .iter()
        .all(|t| t.words.iter().all(|w| w.chars().count() >= 3));
    if long_enough && !terms.is_empty() {
        let values: Vec<String> = terms.iter().map(|t| t.words.join(" ")).collect();
        for recent in [true, false] {
            out.push(Pass {
                sql: trigrams_sql(terms.len(), recent),
                tsquery: String::new(),
                recent: RECENT_PARTS,
                values: values.clone(),
                index_only: !recent,
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

async fn run(
    db: &Db,
    pass: Pass,
    limit: i64,
    viewer: Option<i64>,
) -> Result<Vec<Hit>, crate::db::Error> {
    // Not a prepared statement: PostgreSQL then plans each search for its own
    // words. A reused statement switches to one generic plan after five runs,
    // which ranks every match of a common word (5x slower, benches/backends.rs).
    let mut q = crate::db::query_as::<Hit>(pass.sql)
        .bind(pass.tsquery)
        .bind(limit)
        .bind(pass.recent)
        .bind(viewer);
    for value in pass.values {
        q = q.bind(value);
    }
    q.fetch_all_unprepared(&db.read, pass.index_only).await
}

/// Words in titles and text (ranked), then parts of words, among the documents
/// `actor` may read.
pub(super) async fn search(db: &Db, input: &str, limit: i64, actor: Option<Actor<'_>>) -> Found {
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
        let hits = run(db, pass, limit, access::viewer(actor))
            .await
            .map(|hits| {
                hits.into_iter()
                    .map(|mut hit| {
                        hit.snippet = snippet::around(&hit.snippet, &needles, OPEN, CLOSE);
                        hit
                    })
                    .collect()
            });
        found.take(hits, limit);
    }
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
