//! Search on SQLite: FTS5 tables over titles and texts, one of words ranked by
//! bm25, and one of trigrams (parts of words) that only names candidates.

use std::sync::LazyLock;

use super::Scope;
use crate::db::documents::visible;

/// `{fts}` becomes the FTS5 table, `{weights}` its bm25 column weights and
/// `{visible}` the access filter (viewer `$4`). The inner query ranks rowids only,
/// reading the access columns from an index (the rows keep them after the text,
/// migrations/sqlite/0006); the text, for the snippet, is read for the page of
/// hits only. Only the newest `$3` matches the viewer may read are ranked: the
/// filter comes first, so someone whose documents are old among many newer
/// ones of others still finds theirs by a common word.
const SEARCH_SQL: &str = "SELECT d.id, d.title, d.updated_at, substr(d.body, 1, {start}) AS snippet
    FROM (SELECT {fts}.rowid AS seq, bm25({fts}, {weights}) AS rank
          FROM {fts} JOIN documents AS d INDEXED BY documents_access ON d.seq = {fts}.rowid
          WHERE {fts} MATCH $1 AND d.deleted_at IS NULL AND {visible}
            AND {fts}.rowid >= (
                SELECT coalesce(min(seq), 0) FROM (
                    SELECT d.seq FROM {fts}
                    JOIN documents AS d INDEXED BY documents_access ON d.seq = {fts}.rowid
                    WHERE {fts} MATCH $1 AND d.deleted_at IS NULL AND {visible}
                    ORDER BY {fts}.rowid DESC LIMIT $3))
          ORDER BY rank LIMIT $2) AS top
    JOIN documents d ON d.seq = top.seq
    ORDER BY top.rank";

fn search_sql(fts: &str, weights: &str) -> String {
    SEARCH_SQL
        .replace("{fts}", fts)
        .replace("{weights}", weights)
        .replace("{start}", &(super::START_CHARS + 1).to_string())
        .replace(
            "{visible}",
            &format!("{} AND {}", visible("$4"), super::in_scope(false)),
        )
}

static WORDS: LazyLock<String> = LazyLock::new(|| search_sql("documents_words", "10.0, 1.0, 2.0"));

/// The `limit` best of the newest `ranked_at_most` matches of the FTS5
/// expression `expr` over the word index that `viewer` may read.
pub async fn ranked<T: crate::db::FromRow>(
    ex: &impl crate::db::Conn,
    expr: &str,
    (limit, ranked_at_most): (i64, i64),
    (viewer, scope): (Option<i64>, &Scope),
) -> Result<Vec<T>, crate::db::Error> {
    let q = crate::db::query_as(WORDS.as_str())
        .bind(expr)
        .bind(limit)
        .bind(ranked_at_most);
    scope.bind(q, viewer).fetch_all(ex).await
}

/// A document that holds every trigram asked for, with its whole text where
/// it may hold what is looked for: the caller checks that it does.
#[derive(Debug)]
pub struct Candidate {
    pub seq: i64,
    pub id: String,
    pub title: String,
    pub updated_at: i64,
    pub body: Option<String>,
}
crate::db::from_row!(Candidate {
    seq,
    id,
    title,
    updated_at,
    body
});

/// Newest first, from `seq` `$3` down; the index (migrations/sqlite/0010)
/// keeps no positions, so it ranks nothing. The text is read out only where it
/// may hold each of the strings `$12` (a JSON array): most candidates of a part
/// of a word do not, and reading each whole text out (it is also the largest
/// part of a hit) cost more than SQLite's look (`LIKE`, ASCII letters case
/// aside) at it. A text or title that is not all ASCII may hold them once
/// folded (`length` counts characters, `size` bytes), so it is read out.
/// Documents `$13` (ids, JSON) come without their text, and so do those
/// matching `$14` (the word index's query of what is unwanted; empty: none):
/// that spares reading each one's text to find the unwanted words in it, and
/// they still count among the candidates read, which bounds the scan (left out
/// of the rows, a search whose every candidate is unwanted walked them all).
static CANDIDATES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT d.seq, d.id, d.title, d.updated_at,
                CASE WHEN d.id IN (SELECT value FROM json_each($13)) THEN NULL
                     WHEN $14 <> '' AND d.seq IN (
                              SELECT rowid FROM documents_words
                              WHERE documents_words MATCH $14) THEN NULL
                     WHEN NOT EXISTS (
                              SELECT 1 FROM json_each($12) AS w
                              WHERE d.body NOT LIKE '%' || w.value || '%'
                                AND d.title NOT LIKE '%' || w.value || '%')
                       OR length(d.body) <> d.size
                       OR length(d.title) <> length(CAST(d.title AS BLOB))
                     THEN d.body END AS body
         FROM documents_trigrams CROSS JOIN documents AS d ON d.seq = documents_trigrams.rowid
         WHERE documents_trigrams MATCH $1 AND documents_trigrams.rowid < $3
           AND d.deleted_at IS NULL AND {} AND {}
         ORDER BY documents_trigrams.rowid DESC LIMIT $2",
        visible("$4"),
        super::in_scope(false)
    )
});

/// What a candidate's text is looked at for before it is read out.
pub struct Wanted<'a> {
    /// Strings of ASCII letters, digits and spaces, each of which the text or
    /// the title must hold (ASCII letters case aside) for the text to be read;
    /// none: every text is read.
    pub each: &'a [String],
    /// Documents whose text is not wanted (already found).
    pub not: &'a [&'a str],
    /// The word index's query of documents not wanted at all.
    pub unwanted: Option<&'a str>,
}

/// Up to `limit` documents `viewer` may read whose `seq` is below `below`,
/// holding every trigram of the FTS5 expression `expr`, newest first, each
/// with its whole text where it may be `wanted`.
pub async fn candidates(
    ex: &impl crate::db::Conn,
    expr: &str,
    (limit, below): (i64, i64),
    (viewer, scope): (Option<i64>, &Scope),
    wanted: &Wanted<'_>,
) -> Result<Vec<Candidate>, crate::db::Error> {
    let each =
        serde_json::to_string(wanted.each).map_err(|e| crate::db::internal(e.to_string()))?;
    let not = serde_json::to_string(wanted.not).map_err(|e| crate::db::internal(e.to_string()))?;
    let q = crate::db::query_as(CANDIDATES.as_str())
        .bind(expr)
        .bind(limit)
        .bind(below);
    scope
        .bind(q, viewer)
        .bind(each)
        .bind(not)
        .bind(wanted.unwanted.unwrap_or(""))
        .fetch_all(ex)
        .await
}
