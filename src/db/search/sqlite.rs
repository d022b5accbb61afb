//! Search on SQLite: FTS5 tables over titles and texts, one of words and one of
//! trigrams (parts of words), ranked by bm25.

use std::sync::LazyLock;

use crate::db::documents::visible;

/// Which FTS5 table a search asks.
#[derive(Clone, Copy, Debug)]
pub enum Index {
    /// Whole words (title, text, CJK bigrams), ranked title first.
    Words,
    /// Parts of words, three characters or more.
    Trigrams,
}

/// `{fts}` becomes the FTS5 table, `{weights}` its bm25 column weights and
/// `{visible}` the access filter (viewer `$4`). The inner query ranks rowids only,
/// reading the access columns from an index (the rows keep them after the text,
/// migrations/sqlite/0006); the text, for the snippet, is read for the page of
/// hits only. Only the newest `$3` matches are ranked.
const SEARCH_SQL: &str = "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, 65536) AS snippet
    FROM (SELECT {fts}.rowid AS seq, bm25({fts}, {weights}) AS rank
          FROM {fts} JOIN documents AS d INDEXED BY documents_access ON d.seq = {fts}.rowid
          WHERE {fts} MATCH $1 AND d.deleted_at IS NULL AND {visible}
            AND {fts}.rowid >= (
                SELECT coalesce(min(rowid), 0) FROM (
                    SELECT rowid FROM {fts} WHERE {fts} MATCH $1
                    ORDER BY rowid DESC LIMIT $3))
          ORDER BY rank LIMIT $2) AS top
    JOIN documents d ON d.seq = top.seq
    ORDER BY top.rank";

fn search_sql(fts: &str, weights: &str) -> String {
    SEARCH_SQL
        .replace("{fts}", fts)
        .replace("{weights}", weights)
        .replace("{visible}", &visible("$4"))
}

static WORDS: LazyLock<String> = LazyLock::new(|| search_sql("documents_words", "10.0, 1.0, 2.0"));
static TRIGRAMS: LazyLock<String> = LazyLock::new(|| search_sql("documents_trigrams", "10.0, 1.0"));

/// The `limit` best of the newest `ranked_at_most` matches of the FTS5
/// expression `expr` that `viewer` may read.
pub async fn ranked<T: crate::db::FromRow>(
    ex: &impl crate::db::Conn,
    index: Index,
    expr: &str,
    (limit, ranked_at_most): (i64, i64),
    viewer: Option<i64>,
) -> Result<Vec<T>, crate::db::Error> {
    let sql = match index {
        Index::Words => WORDS.as_str(),
        Index::Trigrams => TRIGRAMS.as_str(),
    };
    crate::db::query_as(sql)
        .bind(expr)
        .bind(limit)
        .bind(ranked_at_most)
        .bind(viewer)
        .fetch_all(ex)
        .await
}
