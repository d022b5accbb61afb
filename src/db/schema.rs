//! Bringing a database's schema up to this build: the steps in `migrations/`,
//! run by SeaORM's migrator. A database made before quire used it (its steps
//! recorded by number in `_sqlx_migrations`) is adopted first: those steps are
//! recorded under their names, nothing is run twice.

use std::path::Path;

use anyhow::Context;
use sea_orm::{ConnectionTrait, TransactionTrait};
use sea_orm_migration::{MigratorTrait, SchemaManager};

use super::sql::{query, query_scalar};
use super::{Backend, Db};

#[path = "../../migrations/mod.rs"]
mod steps;
use steps::Migrator;
pub use steps::STEPS;

/// Serialises migrations across instances sharing one PostgreSQL database.
const MIGRATE_LOCK: i64 = 0x71_75_69_72_66;

/// The table that records the steps that ran.
const RECORD: &str = "seaql_migrations";
/// Where releases before SeaORM's migrator recorded them, by number.
const OLD_RECORD: &str = "_sqlx_migrations";

/// True when an existing SQLite database lacks steps this build knows (or
/// still has its steps recorded the old way): worth a snapshot first.
pub(super) async fn pending(path: &Path) -> anyhow::Result<bool> {
    let conn = super::open_file(path, true).await?;
    let outcome = async {
        let tables: Vec<String> = query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ($1, $2)",
        )
        .bind(RECORD)
        .bind(OLD_RECORD)
        .fetch_all(&conn)
        .await
        .with_context(|| {
            format!(
                "reading the database {}: it is damaged or not a SQLite database \
                 (restore a backup: `quire restore`)",
                path.display()
            )
        })?;
        if tables.iter().any(|t| t == RECORD) {
            let applied: i64 = query_scalar("SELECT count(*) FROM seaql_migrations")
                .fetch_one(&conn)
                .await?;
            return Ok((applied as usize) < STEPS.len());
        }
        anyhow::Ok(tables.iter().any(|t| t == OLD_RECORD))
    }
    .await;
    super::close_file(conn).await;
    outcome
}

impl Db {
    /// Applies the steps this database lacks. On PostgreSQL, one instance at a
    /// time: the others wait for the lock and then find nothing left to do.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self.backend {
            Backend::Sqlite => {
                adopt_old_record(&*self.write).await?;
                Migrator::up(&*self.write, None).await?;
            }
            Backend::Postgres => {
                let tx = self.write.begin().await?;
                query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS locked")
                    .bind(MIGRATE_LOCK)
                    .execute(&tx)
                    .await?;
                adopt_old_record(&tx).await?;
                Migrator::up(&tx, None).await?;
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// True when the database answers and every step this build knows ran.
    pub async fn is_ready(&self) -> bool {
        let applied: Result<i64, _> = query_scalar("SELECT count(*) FROM seaql_migrations")
            .fetch_one(&self.read)
            .await;
        matches!(applied, Ok(n) if n as usize >= STEPS.len())
    }
}

/// Records the steps an older release ran (by number) under their names, once.
async fn adopt_old_record<C>(conn: &C) -> anyhow::Result<()>
where
    C: ConnectionTrait + super::sql::Conn,
    for<'c> &'c C: sea_orm::IntoDatabaseExecutor<'c>,
{
    let manager = SchemaManager::new(conn);
    if manager.has_table(RECORD).await? || !manager.has_table(OLD_RECORD).await? {
        return Ok(());
    }
    let ran: Vec<i64> =
        query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
            .fetch_all(conn)
            .await
            .context("reading the steps an older quire ran")?;
    let names = ran
        .iter()
        .map(|&v| {
            usize::try_from(v)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| STEPS.get(i))
                .map(|s| s.name)
                .with_context(|| {
                    format!("the database records step {v}, which this quire does not know: it was made by a newer release")
                })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Migrator::install(conn).await?;
    if names.is_empty() {
        return Ok(());
    }
    // One statement, so the record is adopted whole or not at all.
    let rows: Vec<String> = (1..=names.len())
        .map(|i| format!("(${}, $1)", i + 1))
        .collect();
    let mut adopt = query(format!(
        "INSERT INTO seaql_migrations (version, applied_at) VALUES {}",
        rows.join(", ")
    ))
    .bind(crate::clock::now_ms() / 1000);
    for name in names {
        adopt = adopt.bind(name);
    }
    adopt.execute(conn).await?;
    tracing::info!(
        steps = ran.len(),
        "recorded the schema steps an older quire ran"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::STEPS;

    /// Every SQL file is a step, for both engines, in order.
    #[test]
    fn every_sql_file_is_a_step_for_both_engines() {
        let names = |dir: &str| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let sqlite = names(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite"));
        let postgres = names(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres"));
        assert_eq!(
            sqlite, postgres,
            "migrations/sqlite and migrations/postgres differ"
        );
        let steps: Vec<String> = STEPS.iter().map(|s| format!("{}.sql", s.name)).collect();
        assert_eq!(
            sqlite, steps,
            "a SQL file that is not in STEPS, or out of order"
        );
    }
}
