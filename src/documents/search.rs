//! Full-text search that accepts any input. The user's words are never passed to
//! FTS5 as syntax: they are cut into plain tokens and re-quoted, so quotes, `*`,
//! `NEAR`, `-`, column filters and SQL fragments are just text to look for.

use super::search_query::{CLOSE, Found, Hit, OPEN, translate};
use super::{Actor, access, snippet};
use crate::db::search::queue;
use crate::db::search::sqlite::{self, Index};
use crate::db::{Backend, Db};

async fn run(
    pool: &impl crate::db::Conn,
    index: Index,
    expr: &str,
    (limit, viewer): (i64, Option<i64>),
    needles: &[String],
) -> Result<Vec<Hit>, crate::db::Error> {
    let mut hits: Vec<Hit> =
        sqlite::ranked(pool, index, expr, (limit, RANKED_AT_MOST), viewer).await?;
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

/// Title hits first, then whole-word hits in the text, then hits inside words,
/// among the documents `actor` may read.
pub async fn search(db: &Db, input: &str, limit: i64, actor: Option<Actor<'_>>) -> Found {
    if db.backend == Backend::Postgres {
        return super::search_pg::search(db, input, limit, actor).await;
    }
    let t = translate(input);
    let page = (limit, access::viewer(actor));
    let mut found = Found::default();
    // The user's own saves of a moment ago are found: the indexer is given up
    // to a second to take them in.
    match queue::caught_up(db).await {
        Ok(current) => found.catching_up = !current,
        Err(e) => {
            tracing::warn!(error = %e, "could not tell whether the search index is current");
            found.catching_up = true;
        }
    }
    if let Some(expr) = &t.words {
        if !expr.contains("cjk :") {
            let in_titles = format!("title : ({expr})");
            found.take(
                run(&db.read, Index::Words, &in_titles, page, &t.needles).await,
                limit,
            );
        }
        if !found.is_full(limit) {
            found.take(
                run(&db.read, Index::Words, expr, page, &t.needles).await,
                limit,
            );
        }
    }
    if let Some(expr) = &t.trigrams
        && !found.is_full(limit)
    {
        found.take(
            run(&db.read, Index::Trigrams, expr, page, &t.needles).await,
            limit,
        );
    }
    found
}
