//! Consistent snapshots of a live database (`VACUUM INTO`, which reads one
//! transaction while writers carry on), verified before they are trusted, and
//! restoring from them.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{close_file, open_file};

/// What a snapshot holds, checked by opening it.
#[derive(Debug, Clone)]
pub struct Verified {
    pub documents: i64,
    pub revisions: i64,
    pub bytes: u64,
}

/// Runs `integrity_check` and counts what is inside.
pub async fn verify(path: &Path) -> anyhow::Result<Verified> {
    let conn = open_file(path, true).await?;
    let check: String = super::query_scalar("PRAGMA integrity_check")
        .fetch_one(&conn)
        .await
        .context("running integrity_check")?;
    if check != "ok" {
        bail!("{} failed integrity_check: {check}", path.display());
    }
    let documents: i64 = super::query_scalar("SELECT count(*) FROM documents")
        .fetch_one(&conn)
        .await
        .context("counting documents: is this a quire database?")?;
    let revisions: i64 = super::query_scalar("SELECT count(*) FROM revisions")
        .fetch_one(&conn)
        .await
        .context("counting revisions")?;
    close_file(conn).await;
    Ok(Verified {
        documents,
        revisions,
        bytes: std::fs::metadata(path)?.len(),
    })
}

fn partial(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    out.with_file_name(name)
}

/// Writes a verified snapshot of `db` to `out` (zstd-compressed when `out` ends in
/// `.zst`). Safe while quire serves: writers are not blocked.
pub async fn backup(db: &Path, out: &Path) -> anyhow::Result<Verified> {
    if out.exists() {
        bail!("{} already exists; choose a new name", out.display());
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let compress = out.extension().is_some_and(|e| e == "zst");
    let raw = if compress {
        partial(&out.with_extension(""))
    } else {
        partial(out)
    };
    let _ = std::fs::remove_file(&raw);
    let conn = open_file(db, false).await?;
    super::query("VACUUM INTO $1")
        .bind(raw.to_string_lossy().into_owned())
        .execute(&conn)
        .await
        .with_context(|| format!("copying {} into {}", db.display(), raw.display()))?;
    close_file(conn).await;
    let verified = match verify(&raw).await {
        Ok(v) => v,
        Err(e) => {
            let _ = std::fs::remove_file(&raw);
            return Err(e.context("the snapshot did not verify; nothing was kept"));
        }
    };
    if compress {
        let tmp = partial(out);
        let mut input = std::fs::File::open(&raw)?;
        let output = std::fs::File::create(&tmp)?;
        let mut encoder = zstd::Encoder::new(output, 3)?;
        std::io::copy(&mut input, &mut encoder)?;
        encoder.finish()?.sync_all()?;
        std::fs::remove_file(&raw)?;
        std::fs::rename(&tmp, out)?;
    } else {
        std::fs::File::open(&raw)?.sync_all()?;
        std::fs::rename(&raw, out)?;
    }
    Ok(verified)
}

/// Puts a snapshot (`.zst` or plain) in place of the database at `db`. Refuses to
/// replace an existing database unless `force`; the snapshot is verified first.
pub async fn restore_snapshot(snapshot: &Path, db: &Path, force: bool) -> anyhow::Result<Verified> {
    if db.exists() && !force {
        bail!(
            "{} exists; stop quire and pass --force to replace it (the current file is kept as {}.before-restore)",
            db.display(),
            db.display()
        );
    }
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let incoming = partial(db);
    if snapshot.extension().is_some_and(|e| e == "zst") {
        let mut decoder = zstd::Decoder::new(std::fs::File::open(snapshot)?)?;
        let mut output = std::fs::File::create(&incoming)?;
        std::io::copy(&mut decoder, &mut output)?;
        output.sync_all()?;
    } else {
        std::fs::copy(snapshot, &incoming)
            .with_context(|| format!("reading {}", snapshot.display()))?;
    }
    let verified = verify(&incoming).await.inspect_err(|_| {
        let _ = std::fs::remove_file(&incoming);
    })?;
    if db.exists() {
        let mut keep = db.as_os_str().to_os_string();
        keep.push(".before-restore");
        std::fs::rename(db, &keep)?;
    }
    for suffix in ["-wal", "-shm"] {
        let mut side = db.as_os_str().to_os_string();
        side.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
    std::fs::rename(&incoming, db)?;
    Ok(verified)
}

/// Before migrations change an existing database, a snapshot goes to
/// `backups/` beside it; the newest `keep` are kept.
pub async fn before_migrations(db: &Path, keep: usize) -> anyhow::Result<PathBuf> {
    let dir = db
        .parent()
        .map(|d| d.join("backups"))
        .unwrap_or_else(|| PathBuf::from("backups"));
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let out = dir.join(format!("pre-migrate-{stamp}.db"));
    backup(db, &out).await?;
    let mut old: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("pre-migrate-") && n.ends_with(".db"))
        })
        .collect();
    old.sort();
    let excess = old.len().saturating_sub(keep);
    for p in &old[..excess] {
        let _ = std::fs::remove_file(p);
    }
    Ok(out)
}
