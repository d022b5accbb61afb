//! Whether anything may have changed in the database since a moment: a counter
//! that moves after every commit, for caches of what was read. A cached value is
//! good only while the counter still shows what it showed *before* the value was
//! read, so a write that commits after that read always outdates it.
//!
//! The counter moves three ways. A write transaction of this process moves it as
//! soon as it has committed, before its caller is answered, so the next request
//! sees the change. Writes of other processes (the command line on the same
//! SQLite file, other instances on PostgreSQL) are seen by a watcher: on SQLite
//! it asks the write connection for `PRAGMA data_version` every `POLL`, which
//! moves when any *other* connection, of any process, has committed, and so
//! not for this process's own writes, which move the counters themselves. It
//! never opens the database's files itself: closing any descriptor of a file
//! drops every POSIX lock the process holds on it, SQLite's too, and a `-shm`
//! whose locks were dropped under it is truncated by the next process to open
//! it (a SIGBUS for this one, where SQLite maps it). On PostgreSQL it
//! listens for the notice every write transaction sends (`group::begin_locked`),
//! delivered at its commit. Until a
//! watcher runs, and while it has lost track, `epoch` is `None` and nothing may
//! be cached. (On PostgreSQL the few writes made outside a write transaction
//! change nothing a page view shows: when a session was last seen, a page
//! rendered again from the same text, the audit log.)
//!
//! Two narrower counters move with it, each left alone by some writes (what a
//! write may change is its `Touches`): `sessions_epoch` by the writes that
//! change documents' content and nothing else (the saves and new documents of
//! the group commit, `db::group`, and the search indexing), `accounts_epoch`
//! by those and by the notifier's, which makes notices (a session's look-up
//! counts the unread ones; an API token's does not). Who a session or token
//! belongs to is kept under them (`web::who_cache`), so a busy hour of saves
//! does not send every request back to the database to learn who is asking.
//! The PostgreSQL notice says which (`Touches::notice`); another process's
//! commit on SQLite moves all three (the watcher cannot tell what it changed).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// How often the SQLite watcher looks at the WAL index: the longest another
/// process's commit may go unseen.
pub const POLL: Duration = Duration::from_millis(100);

/// The PostgreSQL channel write transactions notify.
pub const CHANNEL: &str = "quire_changes";

/// What a write transaction may change, as far as caches care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Touches {
    /// Anything.
    Everything,
    /// Notices, and the content below.
    Notices,
    /// Documents' content and trash marks, revisions, drafts, the queue of
    /// changes to tell, and the search indexes only.
    Content,
}

impl Touches {
    /// The text of its PostgreSQL notice.
    pub fn notice(self) -> &'static str {
        match self {
            Self::Everything => "",
            Self::Notices => "notices",
            Self::Content => "content",
        }
    }

    fn of_notice(text: &str) -> Self {
        [Self::Content, Self::Notices]
            .into_iter()
            .find(|t| t.notice() == text)
            .unwrap_or(Self::Everything)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Changes(Arc<Inner>);

/// The write connection (`Db::write`): a statement run on it outside a
/// transaction has committed when it returns, so each one moves the counter.
#[derive(Clone, Debug)]
pub struct Writer {
    conn: sea_orm::DatabaseConnection,
    changes: Changes,
}

impl Writer {
    pub fn new(conn: sea_orm::DatabaseConnection, changes: Changes) -> Self {
        Self { conn, changes }
    }
}

impl std::ops::Deref for Writer {
    type Target = sea_orm::DatabaseConnection;
    fn deref(&self) -> &Self::Target {
        &self.conn
    }
}

impl super::Conn for Writer {
    type Sea = sea_orm::DatabaseConnection;
    fn sea(&self) -> &Self::Sea {
        &self.conn
    }
    fn ran(&self) {
        self.changes.bump();
    }
}

#[derive(Debug)]
struct Inner {
    epoch: AtomicU64,
    /// Moved by every change but those to content only.
    sessions: AtomicU64,
    /// Moved by every change but those to content and notices only.
    accounts: AtomicU64,
    /// A watcher runs and has not lost track of other processes' commits.
    watching: AtomicBool,
    /// Set when the database is closed: the watcher ends.
    stop: tokio::sync::watch::Sender<bool>,
    /// Watchers that hold a connection to the database, awaited by `stop`.
    tasks: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

impl Default for Inner {
    fn default() -> Self {
        Self {
            epoch: AtomicU64::new(0),
            sessions: AtomicU64::new(0),
            accounts: AtomicU64::new(0),
            watching: AtomicBool::new(false),
            stop: tokio::sync::watch::Sender::new(false),
            tasks: std::sync::Mutex::default(),
        }
    }
}

impl Changes {
    /// The counter now, or `None` when changes may go unseen (nothing may be
    /// cached). Read it before reading what is to be cached.
    pub fn epoch(&self) -> Option<u64> {
        self.read(&self.0.epoch)
    }

    /// The counter content-only writes leave alone, or `None` as for `epoch`.
    /// Read it before reading who a session belongs to.
    pub fn sessions_epoch(&self) -> Option<u64> {
        self.read(&self.0.sessions)
    }

    /// The counter content-only writes and notices leave alone, or `None` as
    /// for `epoch`. Read it before reading who an API token belongs to.
    pub fn accounts_epoch(&self) -> Option<u64> {
        self.read(&self.0.accounts)
    }

    fn read(&self, counter: &AtomicU64) -> Option<u64> {
        self.0
            .watching
            .load(Ordering::Acquire)
            .then(|| counter.load(Ordering::Acquire))
    }

    /// Something was (or may have been) committed.
    pub fn bump(&self) {
        self.committed(Touches::Everything);
    }

    /// A write that may have changed what `touches` says was committed.
    pub fn committed(&self, touches: Touches) {
        if touches == Touches::Everything {
            self.0.accounts.fetch_add(1, Ordering::AcqRel);
        }
        if touches != Touches::Content {
            self.0.sessions.fetch_add(1, Ordering::AcqRel);
        }
        self.0.epoch.fetch_add(1, Ordering::AcqRel);
    }

    /// Ends the watcher, and waits until its SQLite connection is closed (the
    /// database is being closed); nothing may be cached after.
    pub async fn stop(&self) {
        self.0.stop.send_replace(true);
        self.watching(false);
        let tasks = std::mem::take(&mut *self.0.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for task in tasks {
            let _ = task.await;
        }
    }

    /// Runs `work` until `stop`.
    fn spawn_until_stopped(&self, work: impl Future<Output = ()> + Send + 'static) {
        let mut stop = self.0.stop.subscribe();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.wait_for(|stopped| *stopped) => {}
                () = work => {}
            }
        });
    }

    fn watching(&self, on: bool) {
        self.bump();
        self.0.watching.store(on, Ordering::Release);
        self.bump();
    }

    /// Watches the SQLite database for commits by any connection but the
    /// write connection `writer` (a pool of one), whenever `usable` says the
    /// database may be touched.
    pub fn watch_sqlite(
        &self,
        writer: sqlx::SqlitePool,
        usable: impl Fn() -> bool + Send + 'static,
    ) {
        let changes = self.clone();
        let mut stop = self.0.stop.subscribe();
        let task = tokio::spawn(async move {
            let mut last: Option<i64> = None;
            let mut tick = tokio::time::interval(POLL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = stop.wait_for(|stopped| *stopped) => break,
                    _ = tick.tick() => {}
                }
                if !usable() {
                    continue;
                }
                let now = data_version(&writer).await;
                if now.is_none() || now != last {
                    changes.bump();
                }
                if now.is_some() != last.is_some() {
                    changes.watching(now.is_some());
                }
                last = now;
            }
        });
        self.0
            .tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(task);
    }

    /// Listens for PostgreSQL's change notices on a connection of its own.
    pub fn watch_postgres(&self, options: sqlx::postgres::PgConnectOptions) {
        let changes = self.clone();
        self.spawn_until_stopped(async move {
            loop {
                if let Err(e) = listen(&changes, options.clone()).await {
                    tracing::warn!(error = %e, "not listening for other instances' changes; page cache off");
                }
                changes.watching(false);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}

impl super::Db {
    /// Starts watching for commits by other processes, so `changes` may be
    /// trusted by caches (`quire serve` only).
    pub fn watch_changes(&self) {
        match self.backend {
            super::Backend::Sqlite => {
                if self.path.is_some() {
                    let writer = self.write.get_sqlite_connection_pool().clone();
                    let db = self.clone();
                    self.changes
                        .watch_sqlite(writer, move || db.storage_refused().is_none());
                }
            }
            super::Backend::Postgres => {
                let pool = self.write.get_postgres_connection_pool();
                self.changes
                    .watch_postgres((*pool.connect_options()).clone());
            }
        }
    }
}

/// How long the watcher waits for the write connection: longer, and a write
/// holds it (an import's batch, a restore); nothing may be cached meanwhile.
const WAIT_FOR_WRITER: Duration = Duration::from_secs(1);

/// `PRAGMA data_version` on the write connection, between its transactions;
/// `None` when it cannot be read.
async fn data_version(writer: &sqlx::SqlitePool) -> Option<i64> {
    let read = sqlx::query_scalar("PRAGMA data_version").fetch_one(writer);
    match tokio::time::timeout(WAIT_FOR_WRITER, read).await {
        Ok(Ok(version)) => Some(version),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not watching for other processes' changes; page cache off");
            None
        }
        Err(_) => None,
    }
}

async fn listen(
    changes: &Changes,
    options: sqlx::postgres::PgConnectOptions,
) -> anyhow::Result<()> {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await?;
    let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await?;
    listener.listen(CHANNEL).await?;
    changes.watching(true);
    loop {
        // `None`: the connection was lost and made again; what was committed
        // meanwhile went unheard, so everything cached is outdated.
        let told = listener.try_recv().await?;
        changes.committed(told.map_or(Touches::Everything, |n| Touches::of_notice(n.payload())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_may_be_cached_until_a_watcher_runs_and_every_change_moves_the_counter() {
        let changes = Changes::default();
        assert_eq!(changes.epoch(), None);
        changes.watching(true);
        let before = changes.epoch();
        assert!(before.is_some());
        changes.bump();
        assert_ne!(changes.epoch(), before);
        changes.watching(false);
        assert_eq!(changes.epoch(), None);
        assert_eq!(changes.sessions_epoch(), None);
        assert_eq!(changes.accounts_epoch(), None);
    }

    #[test]
    fn each_counter_moves_for_what_its_readers_read() {
        let changes = Changes::default();
        changes.watching(true);
        let now = |c: &Changes| (c.epoch(), c.sessions_epoch(), c.accounts_epoch());
        let (all, sessions, accounts) = now(&changes);
        changes.committed(Touches::of_notice("content"));
        assert_ne!(changes.epoch(), all);
        assert_eq!(
            (changes.sessions_epoch(), changes.accounts_epoch()),
            (sessions, accounts)
        );
        changes.committed(Touches::of_notice("notices"));
        assert_ne!(changes.sessions_epoch(), sessions);
        assert_eq!(changes.accounts_epoch(), accounts);
        let before = now(&changes);
        changes.committed(Touches::of_notice(""));
        let after = now(&changes);
        assert!(before.0 != after.0 && before.1 != after.1 && before.2 != after.2);
    }
}
