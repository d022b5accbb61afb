//! Working with Litestream: restoring from the replica and telling whether the
//! database is being replicated and how far behind the replica is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, bail};

use crate::config::Config;
use crate::db::snapshot::{Verified, verify};

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

/// Every LTX file under `root/<level>/`, as (highest txid, modified time).
fn ltx_files(root: &Path) -> Option<Vec<(u64, SystemTime)>> {
    let mut files = Vec::new();
    for level in std::fs::read_dir(root).ok()?.filter_map(|e| e.ok()) {
        let Ok(entries) = std::fs::read_dir(level.path()) else {
            continue;
        };
        files.extend(entries.filter_map(|e| e.ok()).filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let max = name.strip_suffix(".ltx")?.split('-').nth(1)?;
            let txid = u64::from_str_radix(max, 16).ok()?;
            Some((txid, e.metadata().ok()?.modified().ok()?))
        }));
    }
    Some(files)
}

/// How far a `file://` replica is behind, in seconds, told from files alone (no
/// Litestream run): 0 when it holds the newest transaction Litestream recorded
/// beside the database, else the age of the oldest recorded change it lacks.
/// `None` when that cannot be known this way: no replica URL, a replica that is
/// not `file://`, or no Litestream state beside the database or in the replica.
pub fn file_replica_lag(config: &Config) -> Option<f64> {
    file_replica_lag_at(config, SystemTime::now())
}

/// `file_replica_lag` as seen at `now` (tests pass a fixed time).
fn file_replica_lag_at(config: &Config, now: SystemTime) -> Option<f64> {
    let url = config.replica_url.as_deref()?.trim();
    let replica = PathBuf::from(url.strip_prefix("file://")?);
    let db = config.sqlite_path().ok()?;
    let name = db.file_name()?.to_string_lossy();
    let local = ltx_files(&db.with_file_name(format!(".{name}-litestream")).join("ltx"))?;
    let remote = ltx_files(&replica.join("ltx"))?;
    let replicated = remote.iter().map(|(txid, _)| *txid).max().unwrap_or(0);
    let oldest_missing = local
        .iter()
        .filter(|(txid, _)| *txid > replicated)
        .map(|(_, at)| *at)
        .min();
    Some(oldest_missing.map_or(0.0, |at| {
        now.duration_since(at).map_or(0.0, |age| age.as_secs_f64())
    }))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A fixed "now" for the lag, so no test depends on how long it ran.
    const NOW: Duration = Duration::from_secs(1_800_000_000);

    fn at(age_secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + NOW - Duration::from_secs(age_secs)
    }

    fn ltx(dir: &Path, level: u8, name: &str, age_secs: u64) {
        let folder = dir.join(format!("ltx/{level}"));
        std::fs::create_dir_all(&folder).unwrap();
        let file = std::fs::File::create(folder.join(name)).unwrap();
        file.set_modified(at(age_secs)).unwrap();
    }

    #[test]
    fn file_replica_lag_is_the_age_of_the_oldest_change_the_replica_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let local = dir.path().join(".q.db-litestream");
        let replica = dir.path().join("replica");
        let config = Config {
            database_url: format!("sqlite://{}", dir.path().join("q.db").display()),
            replica_url: Some(format!("file://{}", replica.display())),
            ..Config::from_env()
        };
        let lag = |config: &Config| file_replica_lag_at(config, at(0));
        assert_eq!(lag(&config), None, "no Litestream state yet");

        ltx(&local, 0, "0000000000000001-0000000000000004.ltx", 300);
        ltx(&replica, 1, "0000000000000001-0000000000000004.ltx", 290);
        assert_eq!(lag(&config), Some(0.0));

        ltx(&local, 0, "0000000000000005-0000000000000005.ltx", 120);
        ltx(&local, 0, "0000000000000006-0000000000000006.ltx", 60);
        assert_eq!(lag(&config), Some(120.0), "the oldest missing change");

        let s3 = Config {
            replica_url: Some("s3://bucket/q".into()),
            ..config
        };
        assert_eq!(lag(&s3), None);
    }
}
