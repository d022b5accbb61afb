//! Throwaway sites: a data folder with an admin, quire and Litestream processes.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use reqwest::StatusCode;

use crate::helpers::{self, PASSWORD};

/// These tests time real processes against each other; run them one at a time so
/// they do not compete for the machine's two cores.
pub static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub fn quire_bin() -> &'static str {
    env!("CARGO_BIN_EXE_quire")
}

pub fn litestream() -> PathBuf {
    let path = std::env::var_os("QUIRE_LITESTREAM")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/litestream"));
    assert!(
        path.exists(),
        "Litestream is not installed at {}: run ./scripts/test.sh, which installs it",
        path.display()
    );
    path
}

pub fn runs(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub struct Site {
    pub dir: tempfile::TempDir,
    replica: Option<String>,
}

impl Site {
    pub fn new() -> Self {
        Self::with_replica(None)
    }

    pub fn with_replica(replica: Option<String>) -> Self {
        let site = Self {
            dir: tempfile::tempdir().unwrap(),
            replica,
        };
        let mut child = site
            .command(quire_bin())
            .args(["user", "add", "alice", "--admin", "--password-stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        writeln!(child.stdin.take().unwrap(), "{PASSWORD}").unwrap();
        assert!(child.wait().unwrap().success());
        site
    }
    pub fn db(&self) -> PathBuf {
        self.dir.path().join("data/quire.db")
    }
    pub fn replica_url(&self) -> String {
        self.replica
            .clone()
            .unwrap_or_else(|| format!("file://{}", self.dir.path().join("replica").display()))
    }
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env(
            "QUIRE_DATABASE_URL",
            format!("sqlite://{}", self.db().display()),
        )
        .env("QUIRE_DB_PATH", self.db())
        .env("QUIRE_REPLICA_URL", self.replica_url())
        .env("QUIRE_LITESTREAM", litestream())
        .env("QUIRE_LITESTREAM_SOCKET", self.dir.path().join("ls.sock"))
        .env("QUIRE_BIND", "127.0.0.1:0")
        .env("QUIRE_LOG", "info")
        .env("QUIRE_WORKERS", "2")
        // Set on this machine for other tools; it breaks Litestream's S3 client.
        .env_remove("AWS_CA_BUNDLE")
        .env("AWS_ACCESS_KEY_ID", "quire-test")
        .env("AWS_SECRET_ACCESS_KEY", "quire-test");
        cmd
    }
    /// Litestream as its own process beside quire.
    pub fn sidecar(&self) -> Child {
        self.command(litestream())
            .args(["replicate", "-config", &self.config()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    pub fn config(&self) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy/litestream.yml")
            .display()
            .to_string()
    }
}

/// Starts a process that (itself or as Litestream's child) runs `quire serve`, and
/// waits for quire's "ready" line to learn its port.
pub fn start(cmd: &mut Command) -> (Child, String) {
    try_start(cmd).expect("quire reports ready")
}

/// Like `start`, but a process that ends (or stalls) before quire is ready is an
/// `Err` with the reason, and is reaped.
pub fn try_start(cmd: &mut Command) -> Result<(Child, String), String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(port) = line
                .split("quire is ready port=")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
            {
                let _ = tx.send(Ok(port.to_owned()));
            }
        }
        let _ = tx.send(Err("the process ended before quire was ready".to_owned()));
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(Ok(port)) => Ok((child, format!("http://127.0.0.1:{port}"))),
        other => {
            let _ = child.kill();
            let _ = child.wait();
            Err(match other {
                Ok(Err(why)) => why,
                _ => "quire was not ready within 30 s".to_owned(),
            })
        }
    }
}

pub fn signal(pid: u32, sig: &str) {
    let _ = Command::new("kill").args([sig, &pid.to_string()]).status();
}

pub async fn create(
    client: &reqwest::Client,
    address: &str,
    csrf: &str,
    n: usize,
) -> Option<String> {
    let res = client
        .post(format!("{address}/docs"))
        .form(&[
            ("title", format!("doc {n}").as_str()),
            ("body", "replicated text"),
            ("csrf", csrf),
        ])
        .send()
        .await
        .ok()?;
    (res.status() == StatusCode::SEE_OTHER).then(|| {
        helpers::location(&res)
            .trim_start_matches("/d/")
            .split('?')
            .next()
            .unwrap_or_default()
            .to_owned()
    })
}

pub async fn ids_in(db: &Path) -> std::collections::HashSet<String> {
    use sqlx::{ConnectOptions, sqlite::SqliteConnectOptions};
    let mut conn = SqliteConnectOptions::new()
        .filename(db)
        .connect()
        .await
        .unwrap();
    sqlx::query_scalar("SELECT id FROM documents")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .into_iter()
        .collect()
}

pub fn restore_replica(site: &Site, out: &Path) {
    let status = site
        .command(litestream())
        .arg("restore")
        .arg("-o")
        .arg(out)
        .arg(site.replica_url())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "litestream restore");
}

/// Waits until Litestream has synced to the site's `file://` replica at least
/// once: its first sync comes about a second after it starts, and a stop before
/// it replicates nothing (seen with 0.5.17). Checks the replica's LTX files.
pub async fn wait_for_first_sync(site: &Site) {
    let ltx = site.dir.path().join("replica/ltx");
    let synced = || {
        std::fs::read_dir(&ltx).ok().is_some_and(|levels| {
            levels.filter_map(|l| l.ok()).any(|l| {
                std::fs::read_dir(l.path())
                    .ok()
                    .is_some_and(|mut f| f.any(|e| e.is_ok()))
            })
        })
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !synced() {
        assert!(
            std::time::Instant::now() < deadline,
            "Litestream never synced to {}",
            ltx.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
