//! The writer's health: a write transaction that records whether its commit
//! reached the disk, the last fault seen (for `/readyz`), and the hook that
//! replaces a writer connection a failed transaction left behind.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use std::path::Path;
use std::time::Duration;

use sea_orm::DatabaseTransaction;
use sqlx::Connection;

use super::changes::Touches;
use super::sql::{driver_error, io_error, query};
use super::values::Error;

/// Why the disk refused a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// In words a user can be shown ("the disk is full").
    pub what: &'static str,
    /// The error itself, for the log.
    pub detail: String,
}

/// The last write fault, cleared by the next write that reaches the disk. Shared
/// by every clone of one `Db`; another instance has its own disk to report on.
#[derive(Clone, Debug, Default)]
pub struct WriterHealth(Arc<Health>);

#[derive(Debug, Default)]
pub struct Health {
    fault: Mutex<Option<Fault>>,
    /// A write transaction ended without a commit (refused input, or a statement
    /// that failed): whether the disk was the cause is worth one probe.
    abandoned: AtomicBool,
}

impl WriterHealth {
    pub fn fault(&self) -> Option<Fault> {
        self.0.fault.lock().map_or(None, |f| f.clone())
    }

    /// True once after a write transaction was dropped without a commit.
    pub fn take_abandoned(&self) -> bool {
        self.0.abandoned.swap(false, Ordering::Relaxed)
    }

    /// Notes the outcome of a write: a storage fault is kept, success clears it;
    /// any other error (a constraint, a conflict) says nothing about the disk.
    pub fn record(&self, error: Option<&Error>) {
        let next = match error {
            None => None,
            Some(e) => match storage_fault(e) {
                Some(fault) => Some(fault),
                None => return,
            },
        };
        if let Ok(mut slot) = self.0.fault.lock() {
            if let Some(fault) = &next
                && slot.is_none()
            {
                tracing::error!(error = %fault.detail, what = fault.what, "writes fail: the database cannot be written");
            } else if next.is_none() && slot.is_some() {
                tracing::info!("writes succeed again");
            }
            *slot = next;
        }
    }
}

/// A write transaction (see `Db::begin_write`). Dereferences to the connection,
/// so statements run on `&mut *tx`; `commit` tells the writer's health what
/// happened. Dropped without a commit, it rolls back.
pub struct WriteTx {
    inner: DatabaseTransaction,
    pending: Pending,
}

/// Notes a write transaction dropped without a commit.
struct Pending {
    health: WriterHealth,
    armed: bool,
    /// Told of each commit (a write may have queued documents for search).
    search: Option<super::search::queue::SearchQueue>,
    /// Moved by each commit, before the writer's caller hears of it.
    changes: Option<super::changes::Changes>,
    /// What the transaction may change, for the caches (`db::changes`).
    touches: Touches,
    /// PostgreSQL: its commit is told to every instance (`changes::CHANNEL`)
    /// as it commits, with what it turned out to touch, not when it began.
    tell_at_commit: bool,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.armed {
            self.health.0.abandoned.store(true, Ordering::Relaxed);
        }
    }
}

impl WriteTx {
    /// A write transaction, reporting to `health`, that may change what
    /// `touches` says.
    pub(super) fn write(
        inner: DatabaseTransaction,
        health: WriterHealth,
        search: super::search::queue::SearchQueue,
        changes: super::changes::Changes,
        touches: Touches,
    ) -> Self {
        Self {
            inner,
            pending: Pending {
                health,
                armed: true,
                search: Some(search),
                changes: Some(changes),
                touches,
                tell_at_commit: false,
            },
        }
    }

    /// Tells every PostgreSQL instance of the commit as it commits (the
    /// notifier's batches, which know only then whether they made a notice).
    pub(super) fn tell_at_commit(mut self) -> Self {
        self.pending.tell_at_commit = true;
        self
    }

    /// A read-only transaction: says nothing about the disk.
    pub(super) fn read(inner: DatabaseTransaction) -> Self {
        Self {
            inner,
            pending: Pending {
                health: WriterHealth::default(),
                armed: false,
                search: None,
                changes: None,
                touches: Touches::Content,
                tell_at_commit: false,
            },
        }
    }

    /// A notifier's write that made no unread notice and changed none (a
    /// batch that told nobody, the tidy that forgets read ones): its commit
    /// leaves the caches of who is asking alone (`Touches::Content`), as the
    /// saves it told of did. Narrows, never widens.
    pub fn left_unread_alone(&mut self) {
        if self.pending.touches == Touches::Notices {
            self.pending.touches = Touches::Content;
        }
    }

    pub async fn commit(self) -> Result<(), Error> {
        let Self { inner, mut pending } = self;
        if pending.tell_at_commit {
            query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS told")
                .bind(super::changes::CHANNEL)
                .bind(pending.touches.notice())
                .execute(&inner)
                .await?;
        }
        pending.armed = false;
        let outcome = inner.commit().await;
        if let Some(changes) = &pending.changes {
            changes.committed(pending.touches);
        }
        pending.health.record(outcome.as_ref().err());
        if let (Ok(()), Some(search)) = (&outcome, &pending.search) {
            search.committed();
        }
        outcome
    }

    pub async fn rollback(self) -> Result<(), Error> {
        let Self { inner, mut pending } = self;
        pending.armed = false;
        inner.rollback().await
    }
}

impl super::sql::Conn for WriteTx {
    type Sea = DatabaseTransaction;
    fn sea(&self) -> &DatabaseTransaction {
        &self.inner
    }
}

impl std::ops::Deref for WriteTx {
    type Target = DatabaseTransaction;
    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
}

impl super::Db {
    /// The fault that keeps writes from reaching the disk, if any. While one is
    /// recorded, and once after a write transaction ended without a commit,
    /// each call tries a one-row write: the fault shows as soon as it happens
    /// and clears as soon as the disk takes writes again, and all is well costs
    /// nothing.
    pub async fn writer_fault(&self) -> Option<Fault> {
        if self.health.fault().is_none() && !self.health.take_abandoned() {
            return None;
        }
        let probe = async {
            let tx = self.begin_write().await?;
            query("UPDATE quire_settings SET value = value WHERE key = 'max_doc_bytes'")
                .execute(&*tx)
                .await?;
            tx.commit().await
        };
        let outcome = tokio::time::timeout(Duration::from_secs(2), probe).await;
        if let Ok(Err(e)) = &outcome {
            tracing::debug!(error = %e, "the write probe failed");
        }
        // A failed write leaves SQLite's log grown to the end of a full disk, so
        // a one-row write fits where a document does not: room is checked too.
        if let Some(folder) = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
        {
            let room = tokio::task::spawn_blocking(move || room_in(&folder)).await;
            if let Ok(Err(e)) = room {
                self.health.record(Some(&io_error(e)));
            }
        }
        self.health.fault()
    }
}

/// Writes and removes a 1 MiB file in `folder`: room for a document's write.
pub fn room_in(folder: &std::path::Path) -> std::io::Result<()> {
    let probe = folder.join(".quire-space-probe");
    let written = std::fs::write(&probe, vec![0u8; 1 << 20]);
    let _ = std::fs::remove_file(&probe);
    written
}

/// A storage fault: the disk is full, the file or folder is read-only, or the
/// operating system failed the write. `None` for every other error.
pub fn storage_fault(err: &Error) -> Option<Fault> {
    let what = match driver_error(err)? {
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            match code.parse::<i64>() {
                // SQLite result codes; the low byte is the primary code.
                Ok(n) => match n & 0xff {
                    13 => "the disk is full",
                    8 => "the database file is read-only",
                    10 => "the disk failed a read or write",
                    14 => "a database file could not be opened",
                    _ => return None,
                },
                // PostgreSQL SQLSTATEs: class 53 is out of resources.
                Err(_) if code == "53100" => "the database server's disk is full",
                Err(_) if code == "25006" => "the database server is read-only",
                Err(_) if code.starts_with("58") => "the database server failed a read or write",
                Err(_) => return None,
            }
        }
        sqlx::Error::Io(e) if e.raw_os_error() == Some(28) => "the disk is full",
        sqlx::Error::Io(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            "the database folder is read-only"
        }
        _ => return None,
    };
    Some(Fault {
        what,
        detail: err.to_string(),
    })
}

/// Writer pool hook: while the disk refuses writes, an idle writer connection is
/// not handed out again but replaced: one opened during the fault may hold its
/// files read-only after the fault has cleared, failing the first write after it.
pub async fn fresh_while_faulty(health: WriterHealth) -> Result<bool, sqlx::Error> {
    Ok(health.fault().is_none())
}

/// Writer pool hook: a connection left inside a transaction once its owner let
/// go of it (SQLite rolled a failed commit back by itself, so sqlx's own
/// rollback failed and its count of open transactions stayed at one) would
/// refuse every later `BEGIN`. Such a connection is closed, and so is every
/// connection while the disk refuses writes (SQLite keeps taking a file it once
/// failed to write for read-only); the pool opens a fresh one for the next write.
pub async fn clean_on_release(
    conn: &mut sqlx::SqliteConnection,
    health: WriterHealth,
) -> Result<bool, sqlx::Error> {
    if health.fault().is_some() {
        return Ok(false);
    }
    if !conn.is_in_transaction() {
        return Ok(true);
    }
    // The rollback queued when the transaction was dropped runs first.
    conn.ping().await?;
    if conn.is_in_transaction() {
        tracing::warn!("a failed write left the writer inside a transaction; reconnecting");
        return Ok(false);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_a_storage_fault_and_a_broken_pipe_is_not() {
        let full = io_error(std::io::Error::from_raw_os_error(28));
        assert!(storage_fault(&full).is_some());
        let pipe = io_error(std::io::Error::from_raw_os_error(32));
        assert!(storage_fault(&pipe).is_none());
        assert!(storage_fault(&super::super::sql::not_found()).is_none());
    }

    #[test]
    fn success_clears_a_recorded_fault() {
        let health = WriterHealth::default();
        health.record(Some(&io_error(std::io::Error::from_raw_os_error(28))));
        assert!(health.fault().is_some());
        health.record(Some(&super::super::sql::not_found()));
        assert!(
            health.fault().is_some(),
            "an unrelated error keeps the fault"
        );
        health.record(None);
        assert!(health.fault().is_none());
    }
}
