//! Search on PostgreSQL: the same terms as on SQLite (`search::terms`), turned into
//! a `tsquery` over the `words` column (GIN) and, where every word has three or
//! more characters, `LIKE` patterns over the folded text (pg_trgm GIN). The user's
//! words are only ever bound as values; the terms hold letters and digits only, so
//! the `tsquery` text has no syntax of the user's in it.

use super::access;
use super::search::{RANKED_AT_MOST, Term, Unit, units};

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

/// Newest `RANKED_AT_MOST` matches, ranked with the title above the text.
fn words_sql() -> String {
    format!(
        "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, 65536) AS snippet
         FROM (SELECT d.seq, ts_rank('{{0.1, 0.2, 0.4, 1.0}}', d.words, q) AS rank
               FROM documents d, to_tsquery('simple', quire_fold($1)) AS q
               WHERE d.words @@ q AND d.deleted_at IS NULL AND {visible}
               ORDER BY d.seq DESC LIMIT $3) AS top
         JOIN documents d ON d.seq = top.seq
         ORDER BY top.rank DESC, d.seq DESC LIMIT $2",
        visible = access::visible("$4")
    )
}

/// Every term (`$5`...) appears inside the folded title and text; `$1` (the
/// `tsquery` of the word pass) is empty here. `recent`: among the newest
/// `RANKED_AT_MOST` documents the viewer may read, stopping at the first `$2`
/// found, so a part of a word found everywhere costs a few checks; otherwise all
/// documents, through the trigram index (quick where the part is rare).
fn trigrams_sql(count: usize, recent: bool) -> String {
    let conditions: Vec<String> = (0..count)
        .map(|i| format!("d.folded LIKE '%' || quire_fold(${}) || '%'", i + 5))
        .collect();
    let visible = access::visible("$4");
    let from = if recent {
        format!(
            "(SELECT * FROM documents d WHERE d.deleted_at IS NULL AND {visible}
              ORDER BY d.seq DESC LIMIT $3) AS d"
        )
    } else {
        "documents d".to_owned()
    };
    format!(
        "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, 65536) AS snippet
         FROM {from}
         WHERE {} AND d.deleted_at IS NULL AND {visible} AND $1 = ''
         ORDER BY d.seq DESC LIMIT $2",
        conditions.join(" AND ")
    )
}

/// (SQL, the value for `$1`, further values from `$5` on) for each pass.
pub(super) fn passes(terms: &[Term]) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    if let Some(q) = tsquery(terms) {
        out.push((words_sql(), q, Vec::new()));
    }
    let long_enough = terms
        .iter()
        .all(|t| t.words.iter().all(|w| w.chars().count() >= 3));
    if long_enough && !terms.is_empty() {
        let values: Vec<String> = terms.iter().map(|t| t.words.join(" ")).collect();
        for recent in [true, false] {
            out.push((
                trigrams_sql(terms.len(), recent),
                String::new(),
                values.clone(),
            ));
        }
    }
    out
}

pub(super) const RANKED: i64 = RANKED_AT_MOST;

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
