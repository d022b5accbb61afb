//! Group commit: saves that arrive while the writer is busy share one
//! transaction. One task owns the writer; it takes every write waiting in its
//! queue, runs them one after the other inside one `BEGIN IMMEDIATE` (with
//! those that queued while it waited for the writer or ran the others), commits
//! once, and only then answers each caller. A transaction costs the writer a
//! pool hand-off, a `BEGIN` and a `COMMIT` (each a trip to SQLite's thread):
//! paid once per batch instead of once per save.
//!
//! The task runs on a thread of its own (`quire-writer`, a runtime with one
//! thread), not among the server's tasks: each of its statements is a trip to
//! SQLite's thread and back, and on the shared runtime every trip back woke a
//! worker, often the other one, which then looked for work to steal. On its
//! own thread the trip back wakes that thread only (docs/PERFORMANCE.md,
//! "The group commit on a thread of its own": 1.08× the saves).
//!
//! On PostgreSQL the same task batches the writes of its instance: one
//! transaction, one `BEGIN`, one lock statement, one change notice and one
//! `COMMIT` (one flush of PostgreSQL's log) for every write in the batch,
//! where each write paid all of them before. The batch holds quire's advisory
//! lock *shared*: the writes queued here are guarded single-row statements (a
//! save `WHERE version = base`, a new row), so the batches of several
//! instances run side by side; two that touch one document meet at its row
//! lock, and the second finds the version moved and takes the careful path
//! (if two instances' batches took two documents in opposite orders,
//! PostgreSQL ends one of them as a deadlock and its writes run again, each
//! alone). The notifier's batches hold it shared too (`Db::begin_queue_write`:
//! they claim queue rows with `SKIP LOCKED` and upsert), one batch at a time
//! across instances, so changes are told in the order they were made. Every
//! other write holds the lock exclusively (`Db::begin_write`), so it still
//! runs alone.
//!
//! A write that fails sinks nobody else's: the batch is rolled back and every
//! write in it is run again in a transaction of its own, so each caller gets
//! its own outcome (its own error, a full disk named as such).

use std::sync::{Arc, OnceLock};

use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::changes::Touches;
use super::{Db, Error, WriteTx};

/// Writes one transaction takes at most: a batch still commits within a few
/// milliseconds, so the first write in it is not kept waiting by the last.
const MOST: usize = 64;

/// The queue in front of the writer task, once it runs.
#[derive(Clone, Debug, Default)]
pub struct Group(Arc<OnceLock<mpsc::UnboundedSender<Box<dyn Queued>>>>);

/// A write in the queue: run it (again, if its batch failed), then answer.
trait Queued: Send {
    fn run<'a>(&'a mut self, tx: &'a WriteTx) -> BoxFuture<'a, Result<(), Error>>;
    fn answer(self: Box<Self>, outcome: Result<(), Error>);
}

/// The statements of one write, run on the shared transaction; may run twice.
pub(in crate::db) type Work<T> =
    Box<dyn for<'a> Fn(&'a WriteTx) -> BoxFuture<'a, Result<T, Error>> + Send>;

struct Typed<T> {
    work: Work<T>,
    out: Option<T>,
    reply: oneshot::Sender<Result<T, Error>>,
}

impl<T: Send + 'static> Queued for Typed<T> {
    fn run<'a>(&'a mut self, tx: &'a WriteTx) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            self.out = Some((self.work)(tx).await?);
            Ok(())
        })
    }

    fn answer(self: Box<Self>, outcome: Result<(), Error>) {
        let Self { out, reply, .. } = *self;
        let answer = outcome.and_then(|()| out.ok_or_else(|| super::internal("no result")));
        // The caller may have gone (its request cancelled): the write stands.
        let _ = reply.send(answer);
    }
}

impl Db {
    /// Starts the writer task on its own thread (a server calls this once at
    /// start). It ends when the last handle on this database is dropped.
    /// Without it, `write_grouped` runs each write in its own transaction.
    pub fn start_group_commit(&self) {
        let (send, receive) = mpsc::unbounded_channel();
        if self.group.0.set(send).is_err() {
            return;
        }
        // The task's own handle has no queue: it must not keep itself alive.
        let writer = Self {
            group: Group::default(),
            ..self.clone()
        };
        let task = writer_task(writer, receive);
        let started = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .and_then(|runtime| {
                std::thread::Builder::new()
                    .name("quire-writer".into())
                    .spawn(move || runtime.block_on(task))
            });
        if let Err(e) = started {
            // The queue went with the thread: each write then runs in a
            // transaction of its own (`write_grouped`).
            tracing::warn!(error = %e, "the writer's thread did not start; saves are not grouped");
        }
    }

    /// Runs `work` in a write transaction, shared with other writes queued at
    /// the same time; answers once that transaction has committed.
    pub(in crate::db) async fn write_grouped<T: Send + 'static>(
        &self,
        work: Work<T>,
    ) -> Result<T, Error> {
        let (reply, answer) = oneshot::channel();
        let queued: Box<dyn Queued> = Box::new(Typed {
            work,
            out: None,
            reply,
        });
        // Without a writer task (a command, a test), or once it is gone (its
        // runtime ended), the write runs here, in a transaction of its own.
        let unsent = match self.group.0.get() {
            Some(queue) => queue.send(queued).err().map(|e| e.0),
            None => Some(queued),
        };
        if let Some(mut write) = unsent {
            let outcome = run_alone(self, &mut write).await;
            write.answer(outcome);
        }
        answer
            .await
            .map_err(|_| super::internal("the writer task stopped before answering"))?
    }
}

/// How a PostgreSQL write transaction holds quire's advisory lock.
#[derive(Clone, Copy, Debug)]
pub(super) enum Lock {
    /// Alone: every other write waits (and it waits for them).
    Exclusive,
    /// Beside other shared holders: the writes queued here, and the search
    /// indexing. They change documents' content only (`Touches::Content`).
    Shared,
    /// Shared, and alone among the notifier's batches (`QUEUE_LOCK`, taken
    /// first): a batch tells the changes it sees in the order they were made,
    /// so a second notifier (another instance, or one started by hand) must
    /// not tell a later share of a document before an earlier save of it.
    Queue,
}

impl Lock {
    /// What a transaction holding the lock this way may change: the queued
    /// writes and the indexer change content only, the notifier notices.
    pub(super) fn touches(self) -> Touches {
        match self {
            Self::Exclusive => Touches::Everything,
            Self::Shared => Touches::Content,
            Self::Queue => Touches::Notices,
        }
    }

    /// Whether its change notice is sent as it commits (`WriteTx::tell_at_commit`)
    /// rather than as it takes the lock: a notifier batch knows only at the
    /// end whether it changed any notice.
    pub(super) fn tells_at_commit(self) -> bool {
        matches!(self, Self::Queue)
    }
}

/// The advisory lock a notifier batch holds alone ("quirq" in ASCII).
const QUEUE_LOCK: i64 = 0x71_75_69_72_71;

/// A PostgreSQL transaction holding quire's advisory lock as `lock` says.
pub(super) async fn begin_locked(
    pool: &sea_orm::DatabaseConnection,
    lock: Lock,
) -> Result<super::Transaction, Error> {
    let tx = sea_orm::TransactionTrait::begin(pool).await?;
    if let Lock::Queue = lock {
        super::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS queued")
            .bind(QUEUE_LOCK)
            .execute(&tx)
            .await?;
    }
    let take = match lock {
        Lock::Exclusive => "pg_advisory_xact_lock",
        Lock::Shared | Lock::Queue => "pg_advisory_xact_lock_shared",
    };
    let locked = format!("SELECT 1 FROM (SELECT {take}($1)) AS locked");
    if lock.tells_at_commit() {
        super::query(locked)
            .bind(super::WRITE_LOCK)
            .execute(&tx)
            .await?;
        return Ok(tx);
    }
    // The notice tells every instance, at commit (never for a rollback), that
    // what it cached may be out of date (`db::changes`), and which of it
    // (`Touches::notice`).
    super::query(format!(
        "{locked}, (SELECT pg_notify('{}', $2)) AS told",
        super::changes::CHANNEL
    ))
    .bind(super::WRITE_LOCK)
    .bind(lock.touches().notice())
    .execute(&tx)
    .await?;
    Ok(tx)
}

/// A queued write in a transaction of its own.
async fn run_alone(db: &Db, write: &mut Box<dyn Queued>) -> Result<(), Error> {
    let tx = db.begin_content_write().await?;
    write.run(&tx).await?;
    tx.commit().await
}

async fn writer_task(db: Db, mut queue: mpsc::UnboundedReceiver<Box<dyn Queued>>) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        let together = async {
            let tx = db.begin_content_write().await?;
            // Writes that queued while the writer was taken (the indexer holds
            // it for up to ~10 ms) or while this batch ran join it: they would
            // otherwise wait for its commit and then pay a transaction of their
            // own.
            let mut ran = 0;
            loop {
                take_waiting(&mut queue, &mut batch);
                if ran == batch.len() {
                    break;
                }
                for write in &mut batch[ran..] {
                    write.run(&tx).await?;
                }
                ran = batch.len();
            }
            tx.commit().await
        }
        .await;
        match together {
            Ok(()) => {
                for write in batch {
                    write.answer(Ok(()));
                }
                continue;
            }
            Err(e) if batch.len() == 1 => {
                if let Some(write) = batch.pop() {
                    write.answer(Err(e));
                }
                continue;
            }
            Err(_) => {}
        }
        for mut write in batch {
            let outcome = run_alone(&db, &mut write).await;
            write.answer(outcome);
        }
    }
}

/// Moves the writes waiting in `queue` into `batch`, up to `MOST` in all.
fn take_waiting(
    queue: &mut mpsc::UnboundedReceiver<Box<dyn Queued>>,
    batch: &mut Vec<Box<dyn Queued>>,
) {
    while batch.len() < MOST {
        match queue.try_recv() {
            Ok(next) => batch.push(next),
            Err(_) => break,
        }
    }
}
