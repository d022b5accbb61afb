//! The search queue (SQLite): a save queues its document's `seq` in its own
//! transaction (a trigger, migrations/sqlite/0008), and an indexer applies the
//! queue to both FTS5 indexes in batches, off the writer's critical path: each
//! queued document's entries are removed by rowid and made again from the row
//! as it is now (or not at all, if it is gone). The queue lives in the database,
//! so a crash loses no index work; a document saved ten times while queued is
//! indexed once.
//!
//! PostgreSQL queues a row per save the same way (migrations/postgres/0032)
//! and keeps each document's `tsvector` and folded text in `document_search`,
//! made by the same indexer (`postgres::index_batch`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, watch};

use crate::db::{Backend, Db, Error, query, query_scalar};

/// How much text one indexing transaction takes in, as (documents, bytes); at
/// least one document. In the background: ~10 ms of the writer at most, so
/// saves queued behind it wait little. Smaller batches (32 KB) did not lower
/// the saves' p99 but let the indexer fall behind: it gets the writer once per
/// group commit, and searches waited the full second.
pub const BATCH: Batch = Batch(64, 128 << 10);

/// After an import or seed: fewer, larger FTS5 segments, each transaction
/// still short enough (~0.1 s) that a server on the same file saves in between.
pub const BULK_BATCH: Batch = Batch(1000, 1 << 20);

/// At most this many documents and this many bytes of text.
#[derive(Clone, Copy, Debug)]
pub struct Batch(pub i64, pub i64);

/// How long the indexer lets saves gather after it is woken, unless a search
/// is waiting: many saves of one document become one indexing. At 5 ms, ten
/// people saving 8 KB documents had them indexed again almost once per save,
/// and the indexer took a tenth of the writer (perf, `cargo bench --bench saves`).
const GATHER: Duration = Duration::from_millis(250);

/// A search waits for the indexer at most this long for the user's own saves,
/// and only when little is queued.
pub const WAIT: Duration = Duration::from_secs(1);
pub const WAIT_AT_MOST_QUEUED: i64 = 256;

/// Write commits and indexing progress, shared by every clone of one `Db`.
#[derive(Clone, Debug, Default)]
pub struct SearchQueue(Arc<Progress>);

#[derive(Debug)]
struct Progress {
    /// Wakes the indexer after a commit.
    wake: Notify,
    /// A search waits: the indexer starts without letting more saves gather.
    urgent: Notify,
    /// Write transactions committed so far.
    committed: AtomicU64,
    /// The count of commits whose documents are all indexed.
    indexed: watch::Sender<u64>,
    /// An indexer task runs in this process.
    running: AtomicBool,
}

impl Default for Progress {
    fn default() -> Self {
        Self {
            wake: Notify::new(),
            urgent: Notify::new(),
            committed: AtomicU64::new(0),
            indexed: watch::Sender::new(0),
            running: AtomicBool::new(false),
        }
    }
}

impl SearchQueue {
    /// A write transaction committed: it may have queued documents.
    pub fn committed(&self) {
        self.0.committed.fetch_add(1, Ordering::Release);
        self.0.wake.notify_one();
    }
}

/// How many documents wait to be indexed.
pub async fn queued(db: &Db) -> Result<i64, Error> {
    if db.backend == Backend::Postgres {
        return super::postgres::queued(db).await;
    }
    query_scalar("SELECT count(*) FROM search_queue")
        .fetch_one(&db.read)
        .await
}

/// Indexes a `batch` of queued documents in one write transaction; how many.
pub async fn index_batch(db: &Db, batch: Batch) -> Result<usize, Error> {
    if db.backend == Backend::Postgres {
        return super::postgres::index_batch(db, batch, i64::MAX).await;
    }
    // Looked up on a reader first: an empty queue never takes the writer.
    let any: Option<i64> = query_scalar("SELECT seq FROM search_queue LIMIT 1")
        .fetch_optional(&db.read)
        .await?;
    if any.is_none() {
        return Ok(0);
    }
    let tx = db.begin_content_write().await?;
    let queued: Vec<(i64, i64)> = crate::db::query_as(
        "SELECT q.seq, coalesce(d.size, 0) FROM search_queue q
         LEFT JOIN documents d ON d.seq = q.seq ORDER BY q.seq LIMIT $1",
    )
    .bind(batch.0)
    .fetch_all(&*tx)
    .await?;
    let seqs = batches(queued, batch)
        .into_iter()
        .next()
        .unwrap_or_default();
    if seqs.is_empty() {
        tx.rollback().await?;
        return Ok(0);
    }
    index_seqs(tx, &seqs).await
}

/// One round of the running server's indexer: the documents queued when it
/// begins, `batch` at a time, and not those queued while it runs. Those wait
/// for the next round, after saves gathered again (`GATHER`): a round that
/// went on until the queue was empty indexed a document saved every few
/// milliseconds again after every batch, and gathered nothing while saves
/// kept coming (on PostgreSQL the indexing took 0.8 of a core under
/// `cargo bench --bench saves`, ten documents indexed thirty times a second).
/// Everything committed before it begins is indexed when it ends.
async fn index_round(db: &Db, batch: Batch) -> Result<usize, Error> {
    if db.backend == Backend::Postgres {
        return super::postgres::index_round(db, batch).await;
    }
    let queued: Vec<(i64, i64)> = crate::db::query_as(
        "SELECT q.seq, coalesce(d.size, 0) FROM search_queue q
         LEFT JOIN documents d ON d.seq = q.seq ORDER BY q.seq",
    )
    .fetch_all(&db.read)
    .await?;
    let mut done = 0;
    for seqs in batches(queued, batch) {
        done += index_seqs(db.begin_content_write().await?, &seqs).await?;
    }
    Ok(done)
}

/// Indexes documents `seqs` as they are now in `tx` (SQLite), takes them off
/// the queue and commits; how many.
async fn index_seqs(tx: crate::db::WriteTx, seqs: &[i64]) -> Result<usize, Error> {
    let list = format!(
        "[{}]",
        seqs.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    for sql in [
        "DELETE FROM documents_words WHERE rowid IN (SELECT value FROM json_each($1))",
        "DELETE FROM documents_trigrams WHERE rowid IN (SELECT value FROM json_each($1))",
        "INSERT INTO documents_words (rowid, title, body, cjk)
             SELECT seq, title, body, cjk FROM documents
             WHERE seq IN (SELECT value FROM json_each($1))",
        "INSERT INTO documents_trigrams (rowid, title, body)
             SELECT seq, title, quire_index_words(body) FROM documents
             WHERE seq IN (SELECT value FROM json_each($1))",
        "DELETE FROM search_queue WHERE seq IN (SELECT value FROM json_each($1))",
    ] {
        query(sql).bind(&list).execute(&*tx).await?;
    }
    tx.commit().await?;
    Ok(seqs.len())
}

/// `queued` (anything, size) cut into batches: each takes the next one and
/// as many more as fit in `batch`'s count and bytes.
pub(super) fn batches<T>(queued: Vec<(T, i64)>, Batch(most, bytes): Batch) -> Vec<Vec<T>> {
    let (mut all, mut taken): (Vec<Vec<T>>, i64) = (Vec::new(), 0);
    for (item, size) in queued {
        let size = size.max(1);
        match all.last_mut() {
            Some(last) if (last.len() as i64) < most && taken + size <= bytes => {
                last.push(item);
                taken += size;
            }
            _ => {
                all.push(vec![item]);
                taken = size;
            }
        }
    }
    all
}

/// Indexes everything queued, `batch` documents a transaction, calling
/// `progress` with the count done so far; the total. The segments it made are
/// not merged yet (`merge`).
pub async fn catch_up(
    db: &Db,
    batch: Batch,
    mut progress: impl FnMut(usize),
) -> Result<usize, Error> {
    let mut done = 0;
    loop {
        match index_batch(db, batch).await? {
            0 => return Ok(done),
            n => {
                done += n;
                progress(done);
            }
        }
    }
}

/// Merges each FTS5 index's segments until there is nothing left to merge, in
/// steps that write about `batch`'s bytes each, every step a transaction of its
/// own: the indexes leave merging to quire (migrations/sqlite/0020), because
/// FTS5's own merging ran inside the inserts (a whole level at once when it
/// reached 16 segments) and held the writer for up to 160 ms while saves waited.
pub async fn merge(db: &Db, Batch(_, bytes): Batch) -> Result<(), Error> {
    if db.backend != Backend::Sqlite {
        return Ok(());
    }
    // FTS5 pages hold up to 4 KB.
    let pages = (bytes / 4096).max(16);
    for index in ["documents_words", "documents_trigrams"] {
        // Each step reports rows changed while it merged; fewer than two means
        // there was nothing to merge (the FTS5 documentation's test). Bounded,
        // in case an index keeps reporting work.
        for _ in 0..10_000 {
            let tx = db.begin_content_write().await?;
            let before: i64 = query_scalar("SELECT total_changes()")
                .fetch_one(&*tx)
                .await?;
            query(format!(
                "INSERT INTO {index} ({index}, rank) VALUES ('merge', $1)"
            ))
            .bind(pages)
            .execute(&*tx)
            .await?;
            let after: i64 = query_scalar("SELECT total_changes()")
                .fetch_one(&*tx)
                .await?;
            tx.commit().await?;
            if after - before < 2 {
                break;
            }
        }
    }
    Ok(())
}

/// Runs the indexer until the database is closed: woken by every commit (and
/// once a second, for what another process queued), it indexes what is queued
/// then in rounds of small batches (`index_round`), and tells waiting searches
/// how far it got.
pub async fn run_indexer(db: Db) {
    let progress = db.search.0.clone();
    progress.running.store(true, Ordering::Release);
    while !db.is_closed() {
        let _ = tokio::time::timeout(Duration::from_secs(1), progress.wake.notified()).await;
        tokio::select! {
            () = tokio::time::sleep(GATHER) => {}
            () = progress.urgent.notified() => {}
        }
        if db.storage_refused().is_some() {
            continue;
        }
        let seen = progress.committed.load(Ordering::Acquire);
        match index_round(&db, BATCH).await {
            Ok(indexed) => {
                progress.indexed.send_if_modified(|at| {
                    let newer = seen > *at;
                    *at = (*at).max(seen);
                    newer
                });
                // Only new segments give merging work: an idle round (woken
                // each second) takes no write transaction for it.
                if indexed > 0
                    && let Err(e) = merge(&db, BATCH).await
                    && !db.is_closed()
                {
                    tracing::warn!(error = %e, "merging the search indexes failed; trying again after the next indexing");
                }
            }
            Err(e) if db.is_closed() => {
                tracing::debug!(error = %e, "the indexer stops: the database is closed");
            }
            Err(e) => {
                tracing::warn!(error = %e, "indexing for search failed; retrying in a second");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
    progress.running.store(false, Ordering::Release);
}

/// Brings the search indexes up to the writes committed so far, as far as can
/// be done within `WAIT`: with an indexer running, waits for it; without one
/// (a command, a test), indexes now. False when the indexes still lag (the
/// search page says so).
pub async fn caught_up(db: &Db) -> Result<bool, Error> {
    let progress = &db.search.0;
    let target = progress.committed.load(Ordering::Acquire);
    let queued = queued(db).await?;
    if queued == 0 {
        return Ok(true);
    }
    if !progress.running.load(Ordering::Acquire) {
        catch_up(db, BULK_BATCH, |_| {}).await?;
        return Ok(true);
    }
    if queued > WAIT_AT_MOST_QUEUED {
        return Ok(false);
    }
    let mut indexed = progress.indexed.subscribe();
    progress.urgent.notify_one();
    if db.backend == Backend::Postgres {
        return shared_caught_up(db, indexed).await;
    }
    let reached = tokio::time::timeout(WAIT, indexed.wait_for(|at| *at >= target)).await;
    Ok(matches!(reached, Ok(Ok(_))))
}

/// On PostgreSQL several instances share the queue, and any of their indexers
/// may take a save made on another: a search waits, at most `WAIT`, until
/// every save queued before it is indexed, by whichever indexer, looking
/// again after each of this instance's batches and every 50 ms.
async fn shared_caught_up(db: &Db, mut indexed: watch::Receiver<u64>) -> Result<bool, Error> {
    let last: Option<i64> = query_scalar("SELECT max(id) FROM search_queue")
        .fetch_one(&db.read)
        .await?;
    let Some(last) = last else {
        return Ok(true);
    };
    // Woken at once, not at its next second: the saves may be another instance's.
    db.search.0.wake.notify_one();
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        let left: bool = query_scalar("SELECT EXISTS (SELECT 1 FROM search_queue WHERE id <= $1)")
            .bind(last)
            .fetch_one(&db.read)
            .await?;
        if !left {
            return Ok(true);
        }
        let now = tokio::time::Instant::now();
        if now >= until {
            return Ok(false);
        }
        let next = until.min(now + Duration::from_millis(50));
        let _ = tokio::time::timeout_at(next, indexed.changed()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{Batch, batches};

    #[test]
    fn batches_keep_to_their_count_and_bytes_and_take_a_large_one_alone() {
        let sizes = [40, 50, 20, 300, 0, 10, 10, 10];
        let queued = sizes.iter().copied().enumerate().collect();
        let cut = batches(queued, Batch(3, 100));
        assert_eq!(
            cut,
            vec![vec![0, 1], vec![2], vec![3], vec![4, 5, 6], vec![7]]
        );
    }
}
