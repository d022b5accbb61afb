//! The words the search index holds, read by ranges: FTS5's own vocabulary on
//! SQLite (`documents_words_vocab`), a table a trigger keeps on PostgreSQL
//! (`search_words`), both from migrations/*/0029_search_words.sql. Either may
//! hold words only other people's documents hold: callers check every word
//! they offer by a search under the reader's rights.

use crate::db::{Backend, Db, Error, query_as};

/// Up to `limit` words from `from` (inclusive) to `to` (exclusive), in
/// order, each with how many documents hold it where the engine keeps that
/// (SQLite; 0 on PostgreSQL).
pub async fn words_between(
    db: &Db,
    (from, to): (&str, &str),
    limit: i64,
) -> Result<Vec<(String, i64)>, Error> {
    let sql = match db.backend {
        Backend::Sqlite => {
            "SELECT term, doc FROM documents_words_vocab WHERE term >= $1 AND term < $2 LIMIT $3"
        }
        Backend::Postgres => {
            "SELECT word, 0::bigint FROM search_words
             WHERE word >= $1 AND word < $2 ORDER BY word LIMIT $3"
        }
    };
    query_as(sql)
        .bind(from)
        .bind(to)
        .bind(limit)
        .fetch_all(&db.read)
        .await
}
