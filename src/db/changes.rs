//! Whether anything may have changed in the database since a moment: a counter
//! that moves after every commit, for caches of what was read. A cached value is
//! good only while the counter still shows what it showed *before* the value was
//! read, so a write that commits after that read always outdates it.
//!
//! The counter moves three ways. A write transaction of this process moves it as
//! soon as it has committed, before its caller is answered, so the next request
//! sees the change. Writes of other processes (the command line on the same
//! SQLite file, other instances on PostgreSQL) are seen by a watcher: on SQLite
//! it asks SQLite, on a connection of its own, for `PRAGMA data_version` (which
//! moves when any other connection, of any process, has committed) every
//! `POLL`. It never opens the database's files itself: closing any descriptor of
//! a file drops every POSIX lock the process holds on it, SQLite's too, and a
//! `-shm` whose locks were dropped under it is truncated by the next process to
//! open it (a SIGBUS for this one, where SQLite maps it). On PostgreSQL it
//! listens for the notice every write transaction sends (`group::begin_locked`),
//! delivered at its commit. Until a
//! watcher runs, and while it has lost track, `epoch` is `None` and nothing may
//! be cached. (On PostgreSQL the few writes made outside a write transaction
//! change nothing a page view shows: when a session was last seen, a page
//! rendered again from the same text, the audit log.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// How often the SQLite watcher looks at the WAL index: the longest another
/// process's commit may go unseen.
pub const POLL: Duration = Duration::from_millis(100);

/// The PostgreSQL channel write transactions notify.
pub const CHANNEL: &str = "quire_changes";

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
        self.0
            .watching
            .load(Ordering::Acquire)
            .then(|| self.0.epoch.load(Ordering::Acquire))
    }

    /// Something was (or may have been) committed.
    pub fn bump(&self) {
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

    /// Watches the SQLite database for commits by any other connection, on a
    /// connection of its own made with `options`, whenever `usable` says the
    /// database may be touched; `stop` closes it.
    pub fn watch_sqlite(
        &self,
        options: sqlx::sqlite::SqliteConnectOptions,
        usable: impl Fn() -> bool + Send + 'static,
    ) {
        let changes = self.clone();
        let mut stop = self.0.stop.subscribe();
        let task = tokio::spawn(async move {
            let mut conn: Option<sqlx::SqliteConnection> = None;
            let mut last: Option<i64> = None;
            let mut tick = tokio::time::interval(POLL);
            loop {
                tokio::select! {
                    _ = stop.wait_for(|stopped| *stopped) => break,
                    _ = tick.tick() => {}
                }
                if !usable() {
                    continue;
                }
                let now = data_version(&mut conn, &options).await;
                if now.is_none() || now != last {
                    changes.bump();
                }
                if now.is_some() != last.is_some() {
                    changes.watching(now.is_some());
                }
                last = now;
            }
            if let Some(conn) = conn {
                use sqlx::Connection;
                let _ = conn.close().await;
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
                    let pool = self.read.get_sqlite_connection_pool();
                    let db = self.clone();
                    self.changes
                        .watch_sqlite((*pool.connect_options()).clone(), move || {
                            db.storage_refused().is_none()
                        });
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

/// `PRAGMA data_version` on the watcher's connection (made when there is none);
/// `None` when it cannot be read, and the connection is then made afresh.
async fn data_version(
    conn: &mut Option<sqlx::SqliteConnection>,
    options: &sqlx::sqlite::SqliteConnectOptions,
) -> Option<i64> {
    use sqlx::ConnectOptions;
    if conn.is_none() {
        *conn = options.connect().await.ok();
    }
    let version = sqlx::query_scalar("PRAGMA data_version")
        .fetch_one(conn.as_mut()?)
        .await;
    match version {
        Ok(version) => Some(version),
        Err(e) => {
            tracing::warn!(error = %e, "not watching for other processes' changes; page cache off");
            *conn = None;
            None
        }
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
        listener.try_recv().await?;
        changes.bump();
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
    }
}
