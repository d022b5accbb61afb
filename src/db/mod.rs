//! The database handle: one writer connection and a read pool over the same SQLite
//! file, with quire's PRAGMAs set on every connection, and migrations.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::config::{Config, Durability};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// Shared by every request; cloning is cheap (two pool handles).
#[derive(Clone, Debug)]
pub struct Db {
    /// Readers never take a write lock, so any number may run beside the writer.
    pub read: SqlitePool,
    /// Exactly one connection: writes queue here instead of fighting over the lock.
    pub write: SqlitePool,
}

/// A write transaction started with `BEGIN IMMEDIATE`, so it holds the write lock
/// from its first statement and can never fail half-way on a lock upgrade.
pub type WriteTx = sqlx::Transaction<'static, sqlx::Sqlite>;

/// True when an existing database lacks migrations this build knows.
async fn pending_migrations(path: &Path) -> anyhow::Result<bool> {
    use sqlx::{ConnectOptions, Connection};
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .with_context(|| format!("opening {}", path.display()))?;
    let has_table: bool = sqlx::query_scalar(
        "SELECT count(*) > 0 FROM sqlite_master WHERE name = '_sqlx_migrations'",
    )
    .fetch_one(&mut conn)
    .await?;
    let applied: i64 = if has_table {
        sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations WHERE success = 1")
            .fetch_one(&mut conn)
            .await?
    } else {
        0
    };
    conn.close().await.ok();
    Ok(has_table && (applied as usize) < MIGRATOR.iter().count())
}

impl Db {
    /// Opens (creating if missing) the database named by the config, applies pending
    /// migrations and records the configured size cap for the schema's trigger.
    pub async fn open(config: &Config) -> anyhow::Result<Self> {
        let path = config.sqlite_path().map_err(anyhow::Error::msg)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the data folder {}", dir.display()))?;
        }
        if path.exists() && pending_migrations(&path).await? {
            let snapshot = crate::ops::backup::before_migrations(&path, 5)
                .await
                .context("taking a snapshot before migrating")?;
            tracing::info!(
                snapshot = %snapshot.display(),
                "new migrations: took a snapshot first; to roll back, stop quire and run \
                 `quire restore <snapshot> --force` with the previous version"
            );
        }
        let db = Self::connect(&path, config.durability).await?;
        db.migrate().await?;
        db.set_max_doc_bytes(config.max_doc_bytes).await?;
        Ok(db)
    }

    async fn connect(path: &Path, durability: Durability) -> anyhow::Result<Self> {
        let base = SqliteConnectOptions::from_str("sqlite://")
            .context("building SQLite options")?
            .filename(path)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Normal => SqliteSynchronous::Normal,
                Durability::Full => SqliteSynchronous::Full,
            })
            .busy_timeout(Duration::from_millis(5000))
            .foreign_keys(true)
            // Negative: KiB. 8 MiB of page cache per connection: the operating
            // system caches the file too, and with 32 MiB per connection the
            // server's peak RSS reached 100 MiB under random reads (benches/http.sh).
            .pragma("cache_size", "-8192")
            .pragma("temp_store", "MEMORY")
            .statement_cache_capacity(128);

        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(base.clone().create_if_missing(true))
            .await
            .with_context(|| format!("opening the database {}", path.display()))?;

        let readers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
        let read = SqlitePoolOptions::new()
            .max_connections(readers as u32)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(base.pragma("query_only", "ON"))
            .await
            .with_context(|| format!("opening read connections to {}", path.display()))?;
        Ok(Self { read, write })
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        MIGRATOR
            .run(&self.write)
            .await
            .context("applying database migrations")
    }

    async fn set_max_doc_bytes(&self, cap: usize) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO quire_settings (key, value) VALUES ('max_doc_bytes', ?1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(cap as i64)
        .execute(&self.write)
        .await
        .context("recording the document size cap")?;
        Ok(())
    }

    /// Starts the one write transaction that may run at a time.
    pub async fn begin_write(&self) -> Result<WriteTx, sqlx::Error> {
        let waited = std::time::Instant::now();
        let tx = self.write.begin_with("BEGIN IMMEDIATE").await;
        crate::metrics::record_writer_wait(waited.elapsed());
        tx
    }

    /// True when the database answers and every migration quire knows is applied.
    pub async fn is_ready(&self) -> bool {
        let applied: Result<i64, _> =
            sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations WHERE success = 1")
                .fetch_one(&self.read)
                .await;
        matches!(applied, Ok(n) if n as usize >= MIGRATOR.iter().count())
    }

    /// Closes both pools; the writer last, so the WAL is left in a clean state.
    pub async fn close(&self) {
        self.read.close().await;
        self.write.close().await;
    }
}
