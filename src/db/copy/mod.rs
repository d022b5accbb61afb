//! Copying a whole database from SQLite into an empty PostgreSQL database (for
//! `quire migrate-to`), keys and all, in one target transaction: the copy is read
//! back in that transaction, row counts and SHA-256 digests compared table by
//! table, and only a copy that matches commits.

mod rows;
mod tables;

use std::collections::BTreeSet;

use anyhow::Context;
use futures_util::TryStreamExt;
use indicatif::ProgressBar;

use crate::db::{self, Backend, Db, WriteTx};
use rows::{TableDigest, Value};
use tables::{NOT_COPIED, Table};

/// PostgreSQL takes at most 65,535 parameters in one statement.
const MAX_PARAMS: usize = 65_535;
const MAX_BATCH_ROWS: usize = 1_000;
/// Documents may be large: a batch is sent once it holds this much.
const MAX_BATCH_BYTES: usize = 8 << 20;
/// The schema's own ceiling on a body; see the note in `copy_all`.
const HARD_BODY_CAP: i64 = 67_108_864;

pub struct TableCheck {
    pub name: &'static str,
    pub source_rows: u64,
    pub target_rows: u64,
    pub source_sha256: [u8; 32],
    pub target_sha256: [u8; 32],
}

impl TableCheck {
    pub fn matches(&self) -> bool {
        self.source_rows == self.target_rows && self.source_sha256 == self.target_sha256
    }
}

pub struct MigrateReport {
    pub tables: Vec<TableCheck>,
    /// False when the copy differed: it was rolled back, the target left empty.
    pub committed: bool,
    pub seconds: f64,
}

impl MigrateReport {
    /// Tables whose copy differs from the source; empty when the copy is verified.
    pub fn mismatched(&self) -> Vec<&'static str> {
        self.tables
            .iter()
            .filter(|t| !t.matches())
            .map(|t| t.name)
            .collect()
    }

    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|t| t.source_rows).sum()
    }
}

/// Copies every table of `source` (SQLite) into `target` (PostgreSQL, empty) in
/// one target transaction and commits only a copy that reads back the same.
/// `bar` (the caller's, hidden or drawn) is given the rows to copy as its
/// length and counts them.
pub async fn copy_and_verify(
    source: &Db,
    target: &Db,
    cap: usize,
    bar: &ProgressBar,
) -> anyhow::Result<MigrateReport> {
    let tables = tables::tables()?;
    check_schema(source, &tables).await?;
    copy_all(source, target, &tables, cap, bar).await
}

/// Reads the copy back inside its own transaction, table by table, beside what
/// was read from the source.
async fn verify(
    tx: &mut WriteTx,
    tables: &[Table],
    copied: Vec<(u64, [u8; 32])>,
) -> anyhow::Result<Vec<TableCheck>> {
    let mut checks = Vec::with_capacity(tables.len());
    for (table, (source_rows, source_sha256)) in tables.iter().zip(copied) {
        let (target_rows, target_sha256) = digest(tx, table, Backend::Postgres)
            .await
            .with_context(|| format!("reading back {}", table.name))?;
        checks.push(TableCheck {
            name: table.name,
            source_rows,
            target_rows,
            source_sha256,
            target_sha256,
        });
    }
    Ok(checks)
}

/// Refuses a source with tables or columns this copy does not know, so a new
/// migration that forgets to extend `tables.rs` fails loudly instead of dropping data.
async fn check_schema(source: &Db, tables: &[Table]) -> anyhow::Result<()> {
    let found: Vec<String> = crate::db::query_scalar(
        "SELECT name FROM pragma_table_list
         WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&source.read)
    .await
    .context("listing the source's tables")?;
    let mut unknown: Vec<String> = Vec::new();
    for name in found {
        if NOT_COPIED.contains(&name.as_str()) {
            continue;
        }
        let Some(table) = tables.iter().find(|t| t.name == name) else {
            unknown.push(name);
            continue;
        };
        let columns: Vec<String> =
            crate::db::query_scalar("SELECT name FROM pragma_table_info($1)")
                .bind(&name)
                .fetch_all(&source.read)
                .await
                .with_context(|| format!("listing the columns of {name}"))?;
        let known: BTreeSet<&str> = table.columns.iter().map(|(c, _)| *c).collect();
        let have: BTreeSet<&str> = columns.iter().map(String::as_str).collect();
        unknown.extend(have.difference(&known).map(|c| format!("{name}.{c}")));
        unknown.extend(
            known
                .difference(&have)
                .map(|c| format!("{name}.{c} (missing)")),
        );
    }
    anyhow::ensure!(
        unknown.is_empty(),
        "the source has tables or columns this version of quire does not copy: {}",
        unknown.join(", ")
    );
    Ok(())
}

/// Every table from one SQLite snapshot into one PostgreSQL transaction, read
/// back before it commits: the target gets a verified copy or nothing.
async fn copy_all(
    source: &Db,
    target: &Db,
    tables: &[Table],
    cap: usize,
    bar: &ProgressBar,
) -> anyhow::Result<MigrateReport> {
    let mut tx = target
        .begin_write()
        .await
        .context("starting the target transaction")?;
    // The schema makes the team space; a target nobody has signed up to yet
    // takes the source's spaces instead.
    crate::db::query("DELETE FROM spaces WHERE NOT EXISTS (SELECT 1 FROM users)")
        .execute(&*tx)
        .await
        .context("clearing the target's own team space")?;
    let mut filled = Vec::new();
    for table in tables {
        let any: bool =
            crate::db::query_scalar(format!("SELECT EXISTS (SELECT 1 FROM {})", table.name))
                .fetch_one(&*tx)
                .await
                .with_context(|| format!("checking that the target's {} is empty", table.name))?;
        if any {
            filled.push(table.name);
        }
    }
    anyhow::ensure!(
        filled.is_empty(),
        "the target database is not empty (it has {}); migrate-to only fills an empty \
         database and changed nothing",
        filled.join(", ")
    );
    // Documents saved under a larger QUIRE_MAX_DOC_BYTES than today's must still
    // copy: the cap trigger is lifted to the schema's ceiling inside this
    // transaction and put back before it commits.
    set_cap(&mut tx, HARD_BODY_CAP).await?;

    let mut snapshot = source
        .begin_snapshot()
        .await
        .context("starting a read of the source")?;
    let mut total = 0u64;
    for table in tables {
        let n: i64 = crate::db::query_scalar(format!("SELECT count(*) FROM {}", table.name))
            .fetch_one(&*snapshot)
            .await
            .with_context(|| format!("counting {}", table.name))?;
        total += n as u64;
    }
    bar.set_length(total);
    let mut digests = Vec::with_capacity(tables.len());
    for table in tables {
        bar.set_message(table.name);
        let d = copy_table(&mut snapshot, &mut tx, table, bar)
            .await
            .with_context(|| format!("copying {}", table.name))?;
        digests.push(d);
        if let Some(column) = table.identity {
            db::sync_identity(&tx, table.name, column)
                .await
                .with_context(|| format!("moving {}.{column} past the copied keys", table.name))?;
        }
    }
    snapshot.rollback().await.ok();
    // The copied revisions queued themselves as changes to tell: the source
    // told them already.
    crate::db::query("DELETE FROM change_queue")
        .execute(&*tx)
        .await
        .context("emptying the copy's change queue")?;
    set_cap(&mut tx, cap as i64).await?;
    bar.finish_and_clear();
    let tables = verify(&mut tx, tables, digests).await?;
    let committed = tables.iter().all(TableCheck::matches);
    if committed {
        tx.commit().await.context("committing the copy")?;
    } else {
        tx.rollback().await.context("rolling the copy back")?;
    }
    Ok(MigrateReport {
        tables,
        committed,
        seconds: 0.0,
    })
}

async fn set_cap(tx: &mut WriteTx, cap: i64) -> anyhow::Result<()> {
    crate::db::query("UPDATE quire_settings SET value = $1 WHERE key = 'max_doc_bytes'")
        .bind(cap)
        .execute(&**tx)
        .await
        .context("setting the size cap on the target")?;
    Ok(())
}

async fn copy_table(
    source: &mut WriteTx,
    target: &mut WriteTx,
    table: &Table,
    bar: &ProgressBar,
) -> anyhow::Result<(u64, [u8; 32])> {
    let max_rows = (MAX_PARAMS / table.columns.len()).min(MAX_BATCH_ROWS);
    let select = table.select(Backend::Sqlite);
    let mut stream = crate::db::query(select).fetch(&**source).await?;
    let mut digest = TableDigest::default();
    let mut batch: Vec<Vec<Value>> = Vec::with_capacity(max_rows);
    let mut bytes = 0;
    while let Some(row) = stream.try_next().await? {
        let values = rows::decode(&row, table)?;
        digest.add(&values);
        bytes += values.iter().map(Value::bytes).sum::<usize>();
        batch.push(values);
        if batch.len() >= max_rows || bytes >= MAX_BATCH_BYTES {
            let n = batch.len() as u64;
            insert_batch(target, table, std::mem::take(&mut batch)).await?;
            bar.inc(n);
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        let n = batch.len() as u64;
        insert_batch(target, table, batch).await?;
        bar.inc(n);
    }
    Ok(digest.finish())
}

async fn insert_batch(
    target: &mut WriteTx,
    table: &Table,
    batch: Vec<Vec<Value>>,
) -> anyhow::Result<()> {
    let sql = table.insert(batch.len());
    let query = batch.into_iter().fold(crate::db::query(sql), rows::bind);
    query.execute(&**target).await?;
    Ok(())
}

/// Count and digest of a table as `conn` sees it, read the same way as the copy.
async fn digest(
    conn: &mut WriteTx,
    table: &Table,
    backend: Backend,
) -> anyhow::Result<(u64, [u8; 32])> {
    let mut stream = crate::db::query(table.select(backend))
        .fetch(&**conn)
        .await?;
    let mut digest = TableDigest::default();
    while let Some(row) = stream.try_next().await? {
        digest.add(&rows::decode(&row, table)?);
    }
    Ok(digest.finish())
}
