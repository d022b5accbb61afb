//! Search on PostgreSQL: a `tsquery` over `document_search.words` (GIN) and
//! `LIKE` patterns over its folded text (pg_trgm GIN), both kept by the search
//! indexer after each save's commit (`index_batch`). The user's words are only ever
//! bound as values.

use super::Scope;
use super::queue::{Batch, batches};
use crate::db::documents::visible;
use crate::db::{Db, Error, query, query_as, query_scalar};

/// The advisory lock one indexing batch holds alone ("quirs" in ASCII): two
/// instances' indexers reading the same document at different moments could
/// otherwise store the older reading last.
const INDEX_LOCK: i64 = 0x71_75_69_72_73;

/// How many queued saves one batch looks at (a document saved many times
/// while queued has a row for each save).
const LOOK_AT: i64 = 4096;

/// What the indexer stores for a document: its words (title above text, the
/// first 256 KiB of text and of its CJK pairs, as a `tsvector` holds at most
/// 1 MB: a longer one would fail every batch it is in) and its folded
/// title and text, both folded like SQLite's `remove_diacritics`. Title and
/// text are folded once each (`f`, from `FOLDED`) and used twice: the
/// `OFFSET 0` keeps PostgreSQL from inlining the sub-select, which would fold
/// the text once for the words and again for the folded column (the
/// `INSERT` 0.93× a document, docs/PERFORMANCE.md).
const COLUMNS: &str = "setweight(to_tsvector('simple'::regconfig, f.title), 'A') ||
     setweight(to_tsvector('simple'::regconfig, left(f.body, 262144)), 'B') ||
     setweight(to_tsvector('simple'::regconfig, left(d.cjk, 262144)), 'C'),
     f.title || ' ' || f.body";

/// The documents to index, each beside its folded title and text (`f`).
const FOLDED: &str = "documents d CROSS JOIN LATERAL
     (SELECT quire_fold(d.title) AS title, quire_fold(d.body) AS body OFFSET 0) AS f";

/// How many documents wait to be indexed: a row per save here, so the same
/// document saved twice counts once; among the oldest rows a batch looks at,
/// enough to tell a backlog (`queue::WAIT_AT_MOST_QUEUED`) without reading
/// all of one.
pub async fn queued(db: &Db) -> Result<i64, Error> {
    query_scalar(
        "SELECT count(DISTINCT seq) FROM (SELECT seq FROM search_queue ORDER BY id LIMIT $1) AS q",
    )
    .bind(LOOK_AT)
    .fetch_one(&db.read)
    .await
}

/// The indexer's round (`queue::index_round`): the saves queued when it
/// begins, that is the queue's rows up to its last id then.
pub async fn index_round(db: &Db, batch: Batch) -> Result<usize, Error> {
    let last: Option<i64> = query_scalar("SELECT max(id) FROM search_queue")
        .fetch_one(&db.read)
        .await?;
    let Some(last) = last else {
        return Ok(0);
    };
    let mut done = 0;
    loop {
        match index_batch(db, batch, last).await? {
            0 => return Ok(done),
            n => done += n,
        }
    }
}

/// Indexes a `batch` of the documents queued by rows up to `up_to` in one
/// transaction beside saves; how many. Only the queue rows it read are
/// deleted, after the documents are read as they are now: a save committed in
/// between has a row of its own and queues its document again.
pub async fn index_batch(db: &Db, batch: Batch, up_to: i64) -> Result<usize, Error> {
    let any: Option<i64> = query_scalar("SELECT id FROM search_queue WHERE id <= $1 LIMIT 1")
        .bind(up_to)
        .fetch_optional(&db.read)
        .await?;
    if any.is_none() {
        return Ok(0);
    }
    let tx = db.begin_content_write().await?;
    // Another instance's batch under way: it takes these saves too. Not
    // waited for while holding the write lock, which a writer wanting it
    // alone would queue every later save behind.
    let alone: bool = query_scalar("SELECT pg_try_advisory_xact_lock($1)")
        .bind(INDEX_LOCK)
        .fetch_one(&*tx)
        .await?;
    if !alone {
        tx.rollback().await?;
        return Ok(0);
    }
    let queued: Vec<(i64, String, i64)> = query_as(
        "SELECT q.seq, string_agg(q.id::text, ','), coalesce(max(d.size), 0)
         FROM (SELECT id, seq FROM search_queue WHERE id <= $3 ORDER BY id LIMIT $2) AS q
         LEFT JOIN documents d ON d.seq = q.seq
         GROUP BY q.seq ORDER BY min(q.id) LIMIT $1",
    )
    .bind(batch.0)
    .bind(LOOK_AT)
    .bind(up_to)
    .fetch_all(&*tx)
    .await?;
    let queued = queued
        .into_iter()
        .map(|(seq, ids, size)| ((seq, ids), size));
    let first = batches(queued.collect(), batch).into_iter().next();
    let (seqs, ids): (Vec<String>, Vec<String>) = first
        .unwrap_or_default()
        .into_iter()
        .map(|(seq, ids)| (seq.to_string(), ids))
        .unzip();
    if seqs.is_empty() {
        tx.rollback().await?;
        return Ok(0);
    }
    let indexed = seqs.len();
    let (seqs, ids) = (seqs.join(","), ids.join(","));
    query(format!(
        "INSERT INTO document_search (seq, words, folded)
         SELECT d.seq, {COLUMNS} FROM {FOLDED}
         WHERE d.seq = ANY(string_to_array($1, ',')::bigint[])
         ON CONFLICT (seq) DO UPDATE SET words = excluded.words, folded = excluded.folded"
    ))
    .bind(seqs.as_str())
    .execute(&*tx)
    .await?;
    // A document gone since it was queued leaves the index.
    query(
        "DELETE FROM document_search s WHERE s.seq = ANY(string_to_array($1, ',')::bigint[])
         AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.seq = s.seq)",
    )
    .bind(seqs.as_str())
    .execute(&*tx)
    .await?;
    query("DELETE FROM search_queue WHERE id = ANY(string_to_array($1, ',')::bigint[])")
        .bind(ids.as_str())
        .execute(&*tx)
        .await?;
    tx.commit().await?;
    Ok(indexed)
}

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
             SELECT d.seq, ts_rank('{{0.1, 0.2, 0.4, 1.0}}', s.words, q) AS rank
             FROM document_search s JOIN documents d ON d.seq = s.seq,
                  to_tsquery('simple', quire_fold($1)) AS q
             WHERE s.words @@ q AND d.deleted_at IS NULL AND {visible} AND {scope}
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
    let conditions = |on: &str| -> Vec<String> {
        (0..count)
            .map(|i| format!("{on}.folded LIKE '%' || quire_fold(${}) || '%'", i + 12))
            .collect()
    };
    let not = |on: &str| -> String {
        (0..unwanted)
            .map(|i| {
                format!(
                    " AND {on}.folded NOT LIKE '%' || quire_fold(${}) || '%'",
                    count + i + 12
                )
            })
            .collect()
    };
    let visible = format!("{} AND {}", visible("$4"), super::in_scope(true));
    let from = if recent {
        // The newest `$3` documents the viewer may read, newest first, stopping
        // at the `$2`th found: a part of a word found almost everywhere costs a
        // few checks.
        format!(
            "(SELECT s.seq, s.folded FROM documents d JOIN document_search s ON s.seq = d.seq
              WHERE d.deleted_at IS NULL AND {visible}
              ORDER BY d.seq DESC LIMIT $3) AS m
             JOIN documents d ON d.seq = m.seq"
        )
    } else {
        // Every document, through the trigram index alone (the fence keeps the
        // planner from walking rows in order instead): quick where the part is
        // rare, which is when the newest documents did not have enough of it.
        format!(
            "(SELECT seq, folded FROM document_search s WHERE {} OFFSET 0) AS m
             JOIN documents d ON d.seq = m.seq",
            conditions("s").join(" AND ")
        )
    };
    with_text(&format!(
        "SELECT d.seq, 0 AS rank FROM {from}
         WHERE {}{} AND d.deleted_at IS NULL AND {visible} AND $1 = ''
         ORDER BY d.seq DESC LIMIT $2",
        conditions("m").join(" AND "),
        not("m")
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
