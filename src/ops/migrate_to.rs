//! `quire migrate-to postgres://...`: the checks before a copy, and its report.
//! The copy itself is the database's (`db::copy`).

use std::time::Instant;

use anyhow::Context;

use crate::config::Config;
use crate::db::copy::{MigrateReport, copy_and_verify};
use crate::db::{self, Backend, Db};

/// Copies the SQLite database `config` names into the empty PostgreSQL database
/// at `target_url` and verifies the copy. Refuses, changing nothing, unless the
/// source is SQLite and the target holds no data.
pub async fn migrate_to(
    config: &Config,
    target_url: &str,
    progress: bool,
) -> anyhow::Result<MigrateReport> {
    let started = Instant::now();
    anyhow::ensure!(
        Backend::of_url(&config.database_url) == Some(Backend::Sqlite),
        "migrate-to copies from a SQLite database, but QUIRE_DATABASE_URL is {}",
        db::redact(&config.database_url)
    );
    let path = config.sqlite_path().map_err(anyhow::Error::msg)?;
    anyhow::ensure!(path.exists(), "there is no database at {}", path.display());
    anyhow::ensure!(
        Backend::of_url(target_url) == Some(Backend::Postgres),
        "the target must be a postgres:// URL, not {}",
        db::redact(target_url)
    );

    let source = Db::open(config).await.context("opening the source")?;
    let target_config = Config {
        database_url: target_url.trim().to_owned(),
        ..config.clone()
    };
    let target = match Db::open(&target_config).await {
        Ok(target) => target,
        Err(e) => {
            source.close().await;
            return Err(e.context("opening the target"));
        }
    };
    let bar = crate::progress::bar(0, progress, "copying {msg:14} [{bar:40}] {pos}/{len} rows")?;
    let result = copy_and_verify(&source, &target, config.max_doc_bytes, &bar).await;
    source.close().await;
    // The copied documents are queued for search on the target: indexed now,
    // so the first search after the move finds everything at once.
    let indexed = match &result {
        Ok(_) => crate::progress::index_for_search(&target, progress).await,
        Err(_) => Ok(()),
    };
    target.close().await;
    let mut report = result?;
    indexed.context("indexing the copy for search")?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// One line per table: counts on both sides and the first 12 hex digits of each
/// side's digest.
pub fn table(report: &MigrateReport) -> String {
    let mut out = format!(
        "{:16} {:>10} {:>10}  {:12}  {:12}\n",
        "table", "source", "target", "source sha", "target sha"
    );
    for t in &report.tables {
        out.push_str(&format!(
            "{:16} {:>10} {:>10}  {:12}  {:12}  {}\n",
            t.name,
            t.source_rows,
            t.target_rows,
            &crate::transfer::hex(&t.source_sha256)[..12],
            &crate::transfer::hex(&t.target_sha256)[..12],
            if t.matches() { "ok" } else { "MISMATCH" }
        ));
    }
    out
}
