//! The seeded database rewritten at another page size, to measure what the page
//! size does to reads larger than memory.

use std::time::Instant;

use anyhow::{Context, bail};
use sqlx::{Connection, Executor};

use super::Settings;

/// The same rows in a fresh file of `page_size` bytes a page (and, as any
/// `VACUUM`, each row's pages together).
pub async fn copy(s: &Settings, page_size: &str) -> anyhow::Result<()> {
    let size: u32 = page_size.parse().context("PAGE_SIZE: a number of bytes")?;
    if !size.is_power_of_two() || !(512..=65536).contains(&size) {
        bail!("PAGE_SIZE is a power of two from 512 to 65536");
    }
    let dir = s.dir.join(format!("page-{size}"));
    let target = dir.join("quire.db");
    if target.exists() {
        println!("{} is there, kept", target.display());
        return Ok(());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let started = Instant::now();
    let partial = dir.join("quire.db.partial");
    let _ = std::fs::remove_file(&partial);
    // One connection: the page size asked is that connection's, for its VACUUM.
    let source = sqlx::sqlite::SqliteConnectOptions::new().filename(s.dir.join("quire.db"));
    let mut conn = sqlx::SqliteConnection::connect_with(&source).await?;
    conn.execute(sqlx::AssertSqlSafe(format!("PRAGMA page_size = {size}")))
        .await?;
    let into = partial.display().to_string().replace('\'', "''");
    conn.execute(sqlx::AssertSqlSafe(format!("VACUUM INTO '{into}'")))
        .await?;
    conn.close().await?;
    std::fs::rename(&partial, &target)?;
    std::fs::copy(s.ids_path(), dir.join("ids.tsv")).context("copying ids.tsv")?;
    println!(
        "{} written in {:.0} s ({} MB)",
        target.display(),
        started.elapsed().as_secs_f64(),
        std::fs::metadata(&target)?.len() >> 20
    );
    Ok(())
}
