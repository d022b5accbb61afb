//! The database handle. SQLite (the default): one writer connection and a read pool
//! over the same file, with quire's PRAGMAs set on every connection. PostgreSQL: one
//! pool for both, writes serialised across every instance by an advisory lock.
//! Both are SeaORM connections built from quire's own sqlx pools (so the PRAGMAs
//! run on every connection); statements go through `sql`, so the SQL that both
//! dialects share is written once, and `Backend` picks the few that differ.

pub use crate::config::redact;
pub use audit_log::{audit, document_titles};
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use sea_orm::{
    AccessMode, ConnectionTrait, DatabaseConnection, DbBackend, IsolationLevel,
    SqliteTransactionMode, SqlxPostgresConnector, SqlxSqliteConnector, TransactionOptions,
    TransactionTrait,
};
use sqlx::Executor;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

use crate::config::{Config, Durability};

pub mod accounts;
pub mod attachment_texts;
mod audit_log;
pub mod changes;
pub mod comments;
pub mod copy;
pub mod documents;
pub mod entity;
pub mod notices;
mod pools;
pub use pools::PoolGauge;
mod group;
pub mod search;
pub mod suggestions;
pub mod teams;
pub mod templates;
pub mod webhooks;
pub use sqlite_files::{close_file, open_file};
mod schema;
mod shm;
pub mod snapshot;
mod sql;
mod sqlite_files;
mod stable_plans;
mod values;

/// How many schema steps this build knows.
pub fn schema_steps() -> usize {
    schema::STEPS.len()
}
mod writer;
pub use sea_orm::DatabaseTransaction as Transaction;
pub use sql::{
    Conn, Done, Query, RowQuery, Rows, database_code, database_message, internal, io_error,
    is_foreign_key_violation, is_not_found, is_unique_violation, not_found, query, query_as,
    query_scalar,
};
pub(crate) use values::from_row;
pub use values::{Bind, Decode, Error, FromRow, Row};
pub use writer::{Fault, WriteTx, WriterHealth, storage_fault};

/// Which engine holds the data; chosen by the scheme of `QUIRE_DATABASE_URL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Option<Self> {
        let url = url.trim();
        if url.starts_with("sqlite:") {
            Some(Self::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Self::Postgres)
        } else {
            None
        }
    }
}

/// Shared by every request; cloning is cheap (two pool handles).
#[derive(Clone, Debug)]
pub struct Db {
    /// Readers never take a write lock, so any number may run beside the writer.
    pub read: DatabaseConnection,
    /// SQLite: exactly one connection, so writes queue here instead of fighting
    /// over the lock. PostgreSQL: the same pool as `read`.
    pub write: changes::Writer,
    pub backend: Backend,
    /// The last write the disk refused, until a write succeeds again.
    pub health: WriterHealth,
    /// SQLite: the database file (its folder for the free-space probe).
    path: Option<std::path::PathBuf>,
    /// SQLite: commits and the search indexer's progress behind them.
    pub search: search::queue::SearchQueue,
    /// The queue of writes that share transactions (group commit).
    group: group::Group,
    /// Moves after every commit, for caches (`Db::watch_changes`).
    pub changes: changes::Changes,
    /// SQLite: whether the `-shm` file was last found unwritable.
    shm: shm::Gate,
}

/// The log directive that keeps PostgreSQL's notices ("relation ... already
/// exists, skipping" at every start) out of the log, unless the operator's own
/// filter names the database driver.
pub fn quiet_notices(filter: &str) -> Option<&'static str> {
    (!filter.contains("sqlx")).then_some("sqlx::postgres::notice=warn")
}

/// The advisory lock every PostgreSQL write transaction takes (any constant
/// unique to quire; "quire" in ASCII).
const WRITE_LOCK: i64 = 0x71_75_69_72_65;

impl Db {
    /// Opens (creating if missing) the database named by the config, applies pending
    /// migrations and records the configured size cap for the schema's trigger.
    pub async fn open(config: &Config) -> anyhow::Result<Self> {
        let db = match Backend::of_url(&config.database_url) {
            Some(Backend::Postgres) => {
                Self::connect_postgres(&config.database_url, config.db_connections).await?
            }
            None => anyhow::bail!(
                "QUIRE_DATABASE_URL must start with sqlite:// or postgres:// (it is {:?})",
                redact(&config.database_url)
            ),
            Some(Backend::Sqlite) => {
                let path = config.sqlite_path().map_err(anyhow::Error::msg)?;
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating the data folder {}", dir.display()))?;
                }
                sqlite_files::check_not_empty(&path)?;
                sqlite_files::check_writable(&path)?;
                if path.exists() && schema::pending(&path).await? {
                    let snapshot = crate::db::snapshot::before_migrations(&path, 5)
                        .await
                        .context("taking a snapshot before migrating")?;
                    tracing::info!(
                        snapshot = %snapshot.display(),
                        "new migrations: took a snapshot first; to roll back, stop quire and \
                         run `quire restore <snapshot> --force` with the previous version"
                    );
                }
                Self::connect_sqlite(&path, config.durability).await?
            }
        };
        db.migrate().await?;
        db.set_max_doc_bytes(config.max_doc_bytes).await?;
        Ok(db)
    }

    async fn connect_sqlite(path: &Path, durability: Durability) -> anyhow::Result<Self> {
        let absolute =
            std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))?;
        let options = |create: bool| {
            SqliteConnectOptions::new()
                .filename(&absolute)
                .create_if_missing(create)
        };
        let readers = pools::sqlite_readers();
        let pool = |read_only: bool| {
            let pragmas = pools::sqlite_pragmas(durability, read_only, readers);
            SqlitePoolOptions::new()
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .after_connect(move |conn, _| {
                    let pragmas = pragmas.clone();
                    Box::pin(async move {
                        conn.execute(sqlx::AssertSqlSafe(pragmas)).await?;
                        stable_plans::keep_plans(conn).await?;
                        search::index_words::register(conn).await
                    })
                })
        };
        let health = WriterHealth::default();
        let (watched, guarded) = (health.clone(), health.clone());
        let write = pool(false)
            .max_connections(1)
            .before_acquire(move |_, _| Box::pin(writer::fresh_while_faulty(guarded.clone())))
            .after_release(move |conn, _| Box::pin(writer::clean_on_release(conn, watched.clone())))
            .connect_with(options(true))
            .await
            .with_context(|| format!("opening the database {}", path.display()))?;
        let read = pool(true)
            .max_connections(readers)
            .connect_with(options(false))
            .await
            .with_context(|| format!("opening read connections to {}", path.display()))?;
        let changes = changes::Changes::default();
        Ok(Self {
            read: SqlxSqliteConnector::from_sqlx_sqlite_pool(read),
            write: changes::Writer::new(
                SqlxSqliteConnector::from_sqlx_sqlite_pool(write),
                changes.clone(),
            ),
            backend: Backend::Sqlite,
            health,
            path: Some(absolute.clone()),
            search: Default::default(),
            group: Default::default(),
            changes,
            shm: Default::default(),
        })
    }

    async fn connect_postgres(url: &str, connections: u32) -> anyhow::Result<Self> {
        let options: PgConnectOptions = url.parse().context("reading the PostgreSQL URL")?;
        let pool = PgPoolOptions::new()
            .max_connections(connections.max(2))
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .with_context(|| format!("connecting to PostgreSQL at {}", redact(url)))?;
        let conn = SqlxPostgresConnector::from_sqlx_postgres_pool(pool);
        let changes = changes::Changes::default();
        Ok(Self {
            read: conn.clone(),
            write: changes::Writer::new(conn, changes.clone()),
            backend: Backend::Postgres,
            health: WriterHealth::default(),
            path: None,
            search: Default::default(),
            group: Default::default(),
            changes,
            shm: Default::default(),
        })
    }

    async fn set_max_doc_bytes(&self, cap: usize) -> anyhow::Result<()> {
        query(
            "INSERT INTO quire_settings (key, value) VALUES ('max_doc_bytes', $1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(cap as i64)
        .execute(&self.write)
        .await
        .context("recording the document size cap")?;
        Ok(())
    }

    /// Starts the one write transaction that may run at a time: `BEGIN IMMEDIATE`
    /// on SQLite, so it holds the write lock from its first statement; on
    /// PostgreSQL it holds quire's advisory lock, so writes from every instance
    /// run one at a time, as they do on SQLite.
    pub async fn begin_write(&self) -> Result<WriteTx, Error> {
        self.begin_writing(group::Lock::Exclusive).await
    }

    /// A write that claims rows of a queue (`FOR UPDATE SKIP LOCKED`) and
    /// upserts what they make (the notifier): `begin_write` on SQLite; on
    /// PostgreSQL beside saves, which would otherwise wait for every batch,
    /// but one batch at a time, so changes are told in order.
    pub async fn begin_queue_write(&self) -> Result<WriteTx, Error> {
        self.begin_writing(group::Lock::Queue).await
    }

    /// A write that changes documents' content only (saves, drafts, the trash
    /// mark, the search indexing): `begin_write` on SQLite; beside other such
    /// writes on PostgreSQL; who is asking stays known (`Touches::Content`).
    pub async fn begin_content_write(&self) -> Result<WriteTx, Error> {
        self.begin_writing(group::Lock::Shared).await
    }

    async fn begin_writing(&self, lock: group::Lock) -> Result<WriteTx, Error> {
        let waited = std::time::Instant::now();
        let tx = match self.backend {
            Backend::Sqlite => {
                self.write
                    .begin_with_options(TransactionOptions {
                        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                        ..TransactionOptions::default()
                    })
                    .await
            }
            Backend::Postgres => group::begin_locked(&self.write, lock).await,
        };
        crate::metrics::record_writer_wait(waited.elapsed());
        if let Err(e) = &tx {
            self.health.record(Some(e));
        }
        let tx = WriteTx::write(
            tx?,
            self.health.clone(),
            self.search.clone(),
            self.changes.clone(),
            lock.touches(),
        );
        Ok(
            match self.backend == Backend::Postgres && lock.tells_at_commit() {
                true => tx.tell_at_commit(),
                false => tx,
            },
        )
    }

    /// After many rows arrived at once (import, seed): fresh statistics, so the
    /// query planner does not plan searches for the empty table it last saw.
    pub async fn after_bulk_load(&self) -> Result<(), Error> {
        let sql = match self.backend {
            Backend::Sqlite => "PRAGMA optimize",
            Backend::Postgres => "ANALYZE",
        };
        query(sql).execute(&self.write).await?;
        Ok(())
    }

    /// A read-only transaction that sees one consistent state of the whole
    /// database however long it runs (exports, copies).
    pub async fn begin_snapshot(&self) -> Result<WriteTx, Error> {
        let inner = match self.backend {
            Backend::Sqlite => self.read.begin().await?,
            Backend::Postgres => {
                self.read
                    .begin_with_config(
                        Some(IsolationLevel::RepeatableRead),
                        Some(AccessMode::ReadOnly),
                    )
                    .await?
            }
        };
        Ok(WriteTx::read(inner))
    }

    /// Closes both pools; the writer last, so the WAL is left in a clean state.
    pub async fn close(&self) {
        self.changes.stop().await;
        for conn in [&self.read, &*self.write] {
            match self.backend {
                Backend::Sqlite => conn.get_sqlite_connection_pool().close().await,
                Backend::Postgres => conn.get_postgres_connection_pool().close().await,
            }
        }
    }

    /// True once `close` ran.
    pub fn is_closed(&self) -> bool {
        match self.backend {
            Backend::Sqlite => self.read.get_sqlite_connection_pool().is_closed(),
            Backend::Postgres => self.read.get_postgres_connection_pool().is_closed(),
        }
    }
}

pub fn is_postgres(conn: &impl Conn) -> bool {
    conn.sea().get_database_backend() == DbBackend::Postgres
}

/// After rows were written with explicit keys, moves PostgreSQL's identity
/// sequence past them (SQLite picks max + 1 by itself).
pub async fn sync_identity(
    conn: &impl Conn,
    table: &'static str,
    column: &'static str,
) -> Result<(), Error> {
    if is_postgres(conn) {
        query(format!(
            "SELECT setval(pg_get_serial_sequence('{table}', '{column}'),
                           (SELECT coalesce(max({column}), 0) + 1 FROM {table}), false)"
        ))
        .execute(conn)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redact("postgres://quire:s3cret@db:5432/quire"),
            "postgres://quire:***@db:5432/quire"
        );
        assert_eq!(redact("sqlite://./data/q.db"), "sqlite://./data/q.db");
        assert_eq!(redact("postgres://u@h/d"), "postgres://u@h/d");
    }

    #[test]
    fn the_url_scheme_picks_the_backend() {
        assert_eq!(Backend::of_url("sqlite://x.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("postgres://h/d"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("postgresql://h/d"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("mysql://h/d"), None);
    }
}
