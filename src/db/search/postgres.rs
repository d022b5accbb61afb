//! Search on PostgreSQL: a `tsquery` over the `words` column (GIN) and `LIKE`
//! patterns over the folded text (pg_trgm GIN). The user's words are only ever
//! bound as values.

use super::Scope;
use crate::db::Db;
use crate::db::documents::visible;

/// The text of the `$2` best hits only: the hits are chosen by `seq` and rank
/// alone, so no other document's text is read.
fn with_text(top: &str) -> String {
    format!(
        "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, {start}) AS snippet
         FROM ({top}) AS top JOIN documents d ON d.seq = top.seq
         ORDER BY top.rank DESC, d.seq DESC",
        start = super::START_CHARS + 1
    )
}

/// Newest `$3` matches of the `tsquery` `$1`, ranked with the title above the text.
fn words_sql() -> String {
    with_text(&format!(
        "SELECT seq, rank FROM (
             SELECT d.seq, ts_rank('{{0.1, 0.2, 0.4, 1.0}}', d.words, q) AS rank
             FROM documents d, to_tsquery('simple', quire_fold($1)) AS q
             WHERE d.words @@ q AND d.deleted_at IS NULL AND {visible} AND {scope}
             ORDER BY d.seq DESC LIMIT $3) AS recent
         ORDER BY rank DESC, seq DESC LIMIT $2",
        visible = visible("$4"),
        scope = super::in_scope(true)
    ))
}

/// Every term (`$12`...) appears inside the folded title and text, and none
/// of the `unwanted` after them; `$1` (the `tsquery` of the word pass) is
/// empty here.
fn parts_sql((count, unwanted): (usize, usize), recent: bool) -> String {
    let conditions: Vec<String> = (0..count)
        .map(|i| format!("d.folded LIKE '%' || quire_fold(${}) || '%'", i + 12))
        .collect();
    let not: String = (0..unwanted)
        .map(|i| {
            format!(
                " AND d.folded NOT LIKE '%' || quire_fold(${}) || '%'",
                count + i + 12
            )
        })
        .collect();
    let visible = format!("{} AND {}", visible("$4"), super::in_scope(true));
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
         WHERE {}{not} AND d.deleted_at IS NULL AND {visible} AND $1 = ''
         ORDER BY d.seq DESC LIMIT $2",
        conditions.join(" AND ")
    ))
}

/// What one query of a search looks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Whole words: a `tsquery` (letters, digits and quire's own operators only).
    Words { tsquery: String },
    /// Parts of words, each of three characters or more: among the newest
    /// documents (`recent`), or through the trigram index over all; none of
    /// `unwanted` inside them.
    Parts {
        values: Vec<String>,
        unwanted: Vec<String>,
        recent: bool,
    },
}

/// One pass's hits, best first: at most `limit`, looking at the newest `recent`
/// documents (matches for words, documents for parts of words).
pub async fn run<T: crate::db::FromRow>(
    db: &Db,
    pass: &Pass,
    (limit, recent): (i64, i64),
    (viewer, scope): (Option<i64>, &Scope),
) -> Result<Vec<T>, crate::db::Error> {
    let (sql, tsquery, (values, unwanted), index_only) = match pass {
        Pass::Words { tsquery } => (words_sql(), tsquery.as_str(), (&[][..], &[][..]), false),
        Pass::Parts {
            values,
            unwanted,
            recent,
        } => (
            parts_sql((values.len(), unwanted.len()), *recent),
            "",
            (values.as_slice(), unwanted.as_slice()),
            // The planner counts the main table's pages only, not the out-of-line
            // text a LIKE reads, so it walks every row's text where the trigram
            // index would answer in a millisecond: keep it off sequential scans.
            !*recent,
        ),
    };
    // Not a prepared statement: PostgreSQL then plans each search for its own
    // words. A reused statement switches to one generic plan after five runs,
    // which ranks every match of a common word (5x slower, benches/backends.rs).
    let q = crate::db::query_as::<T>(sql)
        .bind(tsquery)
        .bind(limit)
        .bind(recent);
    let mut q = scope.bind(q, viewer);
    for value in values.iter().chain(unwanted) {
        q = q.bind(value.as_str());
    }
    q.fetch_all_unprepared(&db.read, index_only).await
}
