//! The connection pools: how many SQLite readers, the PRAGMAs and page cache
//! each SQLite connection opens with, and the pools' state, for the metrics.

use sea_orm::DatabaseConnection;

use super::{Backend, Db};
use crate::config::Durability;

/// One connection pool's state, for the metrics.
#[derive(Clone, Copy, Debug)]
pub struct PoolGauge {
    pub name: &'static str,
    pub open: u32,
    pub idle: usize,
    pub most: u32,
}

impl Db {
    /// For the metrics: the read pool, then the write pool (the same pool on
    /// PostgreSQL), each with its open, idle and most connections.
    pub fn pool_gauges(&self) -> [PoolGauge; 2] {
        let gauge = |name, conn: &DatabaseConnection| match self.backend {
            Backend::Sqlite => {
                let p = conn.get_sqlite_connection_pool();
                PoolGauge {
                    name,
                    open: p.size(),
                    idle: p.num_idle(),
                    most: p.options().get_max_connections(),
                }
            }
            Backend::Postgres => {
                let p = conn.get_postgres_connection_pool();
                PoolGauge {
                    name,
                    open: p.size(),
                    idle: p.num_idle(),
                    most: p.options().get_max_connections(),
                }
            }
        };
        [gauge("read", &self.read), gauge("write", &self.write)]
    }
}

/// The SQLite writer's page cache, in KiB.
const WRITER_CACHE_KIB: u32 = 8 << 10;

/// The WAL's length, in pages, past which a commit of the writer copies it
/// back into the database (SQLite's default is 1,000). That copy runs inside
/// the commit, and every save waiting for the writer waits for it: it set the
/// saves' p99. At 500 pages each copy is half as long: p99 0.87–0.95× (8.4–9.4
/// against 9.2–9.9 ms, five rounds alternating) at 0.96–1.01× the saves; at
/// 4,000 the p99 was 1.7× (docs/PERFORMANCE.md, "The WAL copied back in
/// shorter steps").
const WAL_CHECKPOINT_PAGES: u32 = 500;

/// The page cache all SQLite readers share, in KiB: each has its part. 12 MiB
/// in all: two readers had 8 MiB each, and eight readers' own memory (threads,
/// prepared statements) is about 3 MiB more, so the server's peak RSS under
/// random page views stays where it was.
const READERS_CACHE_KIB: u32 = 12 << 10;

/// How many SQLite read connections the server keeps: four for each core, at
/// least eight and at most 32 (each is a thread, and they share one page
/// cache). A read of one row takes microseconds of SQLite's time, but each
/// statement is a hand-off to its connection's thread and back, and on a
/// virtual machine waking a thread costs a hundred microseconds or more: with
/// one reader per core, saves at 10 connections spent 3.5 ms waiting for a
/// reader to look up their token and 3.9 ms for the one that reads the
/// document, of a 10.5 ms save (`cargo bench --bench saves`, 2 cores).
pub(super) fn sqlite_readers() -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    u32::try_from(cores.saturating_mul(4)).map_or(32, |n| n.clamp(8, 32))
}

/// The PRAGMAs every SQLite connection runs first: a reader (one of `readers`)
/// takes its part of the readers' page cache, the writer its own.
pub(super) fn sqlite_pragmas(durability: Durability, read_only: bool, readers: u32) -> String {
    let cache_kib = match read_only {
        true => READERS_CACHE_KIB / readers.max(1),
        false => WRITER_CACHE_KIB,
    };
    let sync = match durability {
        Durability::Normal => "NORMAL",
        Durability::Full => "FULL",
    };
    // cache_size negative = KiB. The operating system caches the file too, and
    // with 32 MiB per connection the server's peak RSS reached 100 MiB under
    // random reads (benches/http.sh).
    let mut sql = format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA busy_timeout = 5000;
         PRAGMA foreign_keys = ON; PRAGMA cache_size = -{cache_kib}; PRAGMA temp_store = MEMORY;"
    );
    match read_only {
        true => sql.push_str(" PRAGMA query_only = ON;"),
        false => sql.push_str(&format!(
            " PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES};"
        )),
    }
    sql
}
