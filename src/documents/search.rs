//! Full-text search that accepts any input. The user's words are never passed to
//! FTS5 as syntax: they are cut into plain tokens and re-quoted, so quotes, `*`,
//! `NEAR`, `-`, column filters and SQL fragments are just text to look for.

use super::search_query::{CLOSE, Found, Hit, OPEN, translate};
use super::{Actor, access, snippet};
use crate::db::{Backend, Db};

async fn run(
    pool: &impl crate::db::Conn,
    sql: &str,
    expr: &str,
    (limit, viewer): (i64, Option<i64>),
    needles: &[String],
) -> Result<Vec<Hit>, crate::db::Error> {
    let mut hits: Vec<Hit> = crate::db::query_as(sql.to_owned())
        .bind(expr)
        .bind(limit)
        .bind(RANKED_AT_MOST)
        .bind(viewer)
        .fetch_all(pool)
        .await?;
    for hit in &mut hits {
        hit.snippet = snippet::around(&hit.snippet, needles, OPEN, CLOSE);
    }
    Ok(hits)
}

/// Ranking costs time per match and per occurrence: every match of a word found
/// in most documents took hundreds of milliseconds at 100,000 documents, and
/// ranking 2,000 matches of 64 KB documents still took ~15 ms. Only the most
/// recently created matches are ranked (benches/search.rs, benches/budget.rs).
pub(super) const RANKED_AT_MOST: i64 = 500;

/// `{fts}` becomes the FTS5 table, `{weights}` its bm25 column weights and
/// `{visible}` the access filter (viewer `$4`), see `search_sql`. The inner query
/// ranks rowids only, reading the access columns from an index (the rows keep them
/// after the text, migrations/sqlite/0006); the text, for the snippet, is read for
/// the page of hits only.
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
        .replace("{visible}", &access::visible("$4"))
}

/// Title hits first, then whole-word hits in the text, then hits inside words,
/// among the documents `actor` may read.
pub async fn search(db: &Db, input: &str, limit: i64, actor: Option<Actor<'_>>) -> Found {
    if db.backend == Backend::Postgres {
        return super::search_pg::search(db, input, limit, actor).await;
    }
    let t = translate(input);
    let page = (limit, access::viewer(actor));
    let words_sql = search_sql("documents_words", "10.0, 1.0, 2.0");
    let trigrams_sql = search_sql("documents_trigrams", "10.0, 1.0");
    let mut found = Found::default();
    if let Some(expr) = &t.words {
        if !expr.contains("cjk :") {
            let in_titles = format!("title : ({expr})");
            found.take(
                run(&db.read, &words_sql, &in_titles, page, &t.needles).await,
                limit,
            );
        }
        if !found.is_full(limit) {
            found.take(
                run(&db.read, &words_sql, expr, page, &t.needles).await,
                limit,
            );
        }
    }
    if let Some(expr) = &t.trigrams
        && !found.is_full(limit)
    {
        found.take(
            run(&db.read, &trigrams_sql, expr, page, &t.needles).await,
            limit,
        );
    }
    found
}
