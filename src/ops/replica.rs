//! Working with Litestream: restoring from the replica and telling whether the
//! database is being replicated and how far behind the replica is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, bail};

use super::backup::{Verified, verify};
use crate::config::Config;

/// The Litestream binary: `QUIRE_LITESTREAM`, else `litestream` on PATH, else the
/// copy the test command installs in `.venv/bin`.
pub fn litestream(config: &Config) -> PathBuf {
    let named = PathBuf::from(&config.litestream);
    if named.components().count() > 1 || which(&named).is_some() {
        return named;
    }
    let local = PathBuf::from(".venv/bin/litestream");
    if local.exists() { local } else { named }
}

fn which(name: &Path) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn replica_url(config: &Config) -> anyhow::Result<&str> {
    config
        .replica_url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
        .context("QUIRE_REPLICA_URL is not set: quire does not know where the replica is")
}

/// Restores the newest replicated state (or the state at `timestamp`, RFC 3339)
/// into the database path. Refuses to replace an existing database unless `force`;
/// the replaced file is kept beside it.
pub fn restore(config: &Config, timestamp: Option<&str>, force: bool) -> anyhow::Result<PathBuf> {
    let db = config.sqlite_path().map_err(anyhow::Error::msg)?;
    let url = replica_url(config)?;
    if db.exists() && !force {
        bail!(
            "{} exists; stop quire and pass --force to replace it with the replica",
            db.display()
        );
    }
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut incoming = db.as_os_str().to_os_string();
    incoming.push(".restoring");
    let incoming = PathBuf::from(incoming);
    let _ = std::fs::remove_file(&incoming);
    let mut cmd = Command::new(litestream(config));
    cmd.arg("restore").arg("-o").arg(&incoming);
    if let Some(t) = timestamp {
        cmd.arg("-timestamp").arg(t);
    }
    cmd.arg(url);
    let out = cmd
        .output()
        .with_context(|| format!("running {}", litestream(config).display()))?;
    if !out.status.success() {
        bail!(
            "litestream restore failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    if db.exists() {
        let mut keep = db.as_os_str().to_os_string();
        keep.push(".before-restore");
        std::fs::rename(&db, keep)?;
    }
    for suffix in ["-wal", "-shm"] {
        let mut side = db.as_os_str().to_os_string();
        side.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
    std::fs::rename(&incoming, &db)?;
    Ok(db)
}

pub async fn restore_verified(
    config: &Config,
    timestamp: Option<&str>,
    force: bool,
) -> anyhow::Result<Verified> {
    let db = restore(config, timestamp, force)?;
    verify(&db).await
}

/// Highest transaction id among the LTX files in a folder (`MIN-MAX.ltx`).
fn newest_ltx(dir: &Path) -> Option<(u64, SystemTime)> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let max = name.strip_suffix(".ltx")?.split('-').nth(1)?;
            let txid = u64::from_str_radix(max, 16).ok()?;
            Some((txid, e.metadata().ok()?.modified().ok()?))
        })
        .max_by_key(|(t, _)| *t)
}

fn replica_txid(config: &Config, url: &str) -> anyhow::Result<Option<u64>> {
    let out = Command::new(litestream(config))
        .args(["ltx", url])
        .output()
        .context("running litestream ltx")?;
    if !out.status.success() {
        bail!("{}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter_map(|t| u64::from_str_radix(t, 16).ok())
        .max())
}

/// Lines for `quire doctor` about replication.
pub fn report(config: &Config) -> anyhow::Result<Vec<String>> {
    let db = config.sqlite_path().map_err(anyhow::Error::msg)?;
    let name = db.file_name().unwrap_or_default().to_string_lossy();
    let meta = db
        .with_file_name(format!(".{name}-litestream"))
        .join("ltx/0");
    let mut lines = Vec::new();
    let local = newest_ltx(&meta);
    match local {
        Some((txid, at)) => {
            let age = at.elapsed().map(|d| d.as_secs()).unwrap_or(0);
            lines.push(format!(
                "replication: Litestream is tracking this database (local txid {txid:x}, last change recorded {age} s ago)"
            ));
        }
        None => lines
            .push("replication: NOT replicated — no Litestream state beside the database".into()),
    }
    match config.replica_url.as_deref().filter(|u| !u.is_empty()) {
        None => lines.push("replica: QUIRE_REPLICA_URL is not set".into()),
        Some(url) => match (replica_txid(config, url), local) {
            (Ok(Some(remote)), Some((txid, _))) => lines.push(format!(
                "replica: {url} holds txid {remote:x}; {} transaction(s) behind",
                txid.saturating_sub(remote)
            )),
            (Ok(Some(remote)), None) => lines.push(format!("replica: {url} holds txid {remote:x}")),
            (Ok(None), _) => lines.push(format!("replica: {url} is empty")),
            (Err(e), _) => lines.push(format!("replica: could not read {url}: {e}")),
        },
    }
    Ok(lines)
}
