//! Replication and crash safety with real processes: the quire binary, the real
//! Litestream binary, `kill -9`. Runs are repeated; QUIRE_REPLICA_RUNS and
//! QUIRE_CRASH_RUNS raise the counts (benches/durability.sh runs 20 and 50).

#[allow(dead_code)]
#[path = "api/helpers.rs"]
mod helpers;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use helpers::{PASSWORD, sign_in};
use quire::ops::backup::verify;
use reqwest::StatusCode;

/// These tests time real processes against each other; run them one at a time so
/// they do not compete for the machine's two cores.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn quire_bin() -> &'static str {
    env!("CARGO_BIN_EXE_quire")
}

fn litestream() -> PathBuf {
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

fn runs(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Site {
    dir: tempfile::TempDir,
    replica: Option<String>,
}

impl Site {
    fn new() -> Self {
        Self::with_replica(None)
    }

    fn with_replica(replica: Option<String>) -> Self {
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
    fn db(&self) -> PathBuf {
        self.dir.path().join("data/quire.db")
    }
    fn replica_url(&self) -> String {
        self.replica
            .clone()
            .unwrap_or_else(|| format!("file://{}", self.dir.path().join("replica").display()))
    }
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
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
    fn sidecar(&self) -> Child {
        self.command(litestream())
            .args(["replicate", "-config", &self.config()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    fn config(&self) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy/litestream.yml")
            .display()
            .to_string()
    }
}

/// Starts a process that (itself or as Litestream's child) runs `quire serve`, and
/// waits for quire's "ready" line to learn its port.
fn start(cmd: &mut Command) -> (Child, String) {
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
                let _ = tx.send(port.to_owned());
            }
        }
    });
    let port = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("quire reports ready");
    (child, format!("http://127.0.0.1:{port}"))
}

fn signal(pid: u32, sig: &str) {
    let _ = Command::new("kill").args([sig, &pid.to_string()]).status();
}

async fn create(client: &reqwest::Client, address: &str, csrf: &str, n: usize) -> Option<String> {
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

async fn ids_in(db: &Path) -> std::collections::HashSet<String> {
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

fn restore_replica(site: &Site, out: &Path) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_litestream_exec_every_write_survives_losing_the_disk() {
    let _serial = SERIAL.lock().await;
    let site = Site::new();
    let mut cmd = site.command(litestream());
    cmd.args(["replicate", "-config", &site.config(), "-exec"])
        .arg(format!("{} serve", quire_bin()));
    let (mut litestream_proc, address) = start(&mut cmd);
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    let mut written = Vec::new();
    for n in 0..30 {
        written.push(
            create(&client, &address, &csrf, n)
                .await
                .expect("write acknowledged"),
        );
    }
    // Litestream's first sync happens about a second after it starts; a stop before
    // that replicates nothing (seen with 0.5.17). The last ten writes go right
    // before the stop, so only the final sync on shutdown can save them.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for n in 30..40 {
        written.push(
            create(&client, &address, &csrf, n)
                .await
                .expect("write acknowledged"),
        );
    }

    // Stop quire (Litestream's child); Litestream syncs one last time and exits.
    // Go may start the child from any thread: look through every task.
    let tasks = std::fs::read_dir(format!("/proc/{}/task", litestream_proc.id())).unwrap();
    let children: Vec<u32> = tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect();
    assert!(!children.is_empty(), "quire runs as Litestream's child");
    for pid in children {
        signal(pid, "-TERM");
    }
    let status = litestream_proc.wait().unwrap();
    assert!(
        status.success(),
        "litestream exits cleanly after quire: {status}"
    );

    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let out = site
        .command(quire_bin())
        .args(["restore", "--from-replica"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let verified = verify(&site.db()).await.unwrap();
    assert_eq!(verified.documents, 40);
    let present = ids_in(&site.db()).await;
    assert!(written.iter().all(|id| present.contains(id)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_server_and_sidecar_loses_at_most_about_a_second() {
    let _serial = SERIAL.lock().await;
    let mut windows = Vec::new();
    for run in 0..runs("QUIRE_REPLICA_RUNS", 3) {
        let site = Site::new();
        let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
        let mut sidecar = site.sidecar();
        let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
        let started = Instant::now();
        let run_for = Duration::from_millis(1500 + (run as u64 * 377) % 1500);
        let mut acked: Vec<(String, Instant)> = Vec::new();
        let mut n = 0;
        while started.elapsed() < run_for {
            if let Some(id) = create(&client, &address, &csrf, n).await {
                acked.push((id, Instant::now()));
            }
            n += 1;
        }
        let killed_at = Instant::now();
        signal(server.id(), "-KILL");
        signal(sidecar.id(), "-KILL");
        let _ = (server.wait(), sidecar.wait());

        let out = site.dir.path().join("restored.db");
        restore_replica(&site, &out);
        verify(&out)
            .await
            .expect("the restored database is consistent");
        let present = ids_in(&out).await;
        let first_lost = acked.iter().find(|(id, _)| !present.contains(id));
        let window = first_lost.map_or(Duration::ZERO, |(_, at)| killed_at - *at);
        windows.push(window);
        assert!(
            acked
                .iter()
                .filter(|(_, at)| killed_at - *at > Duration::from_millis(1500))
                .all(|(id, _)| present.contains(id)),
            "run {run}: a write acknowledged over 1.5 s before the kill was lost"
        );
        println!(
            "run {run}: {} writes acknowledged, {} restored, loss window {:.2} s",
            acked.len(),
            present.len(),
            window.as_secs_f64()
        );
    }
    windows.sort();
    println!(
        "replica loss window over {} runs: min {:.2} s, median {:.2} s, max {:.2} s",
        windows.len(),
        windows[0].as_secs_f64(),
        windows[windows.len() / 2].as_secs_f64(),
        windows[windows.len() - 1].as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_server_under_100_writers_loses_no_acknowledged_write() {
    let _serial = SERIAL.lock().await;
    for run in 0..runs("QUIRE_CRASH_RUNS", 5) {
        let site = Site::new();
        let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
        let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
        let deadline = Instant::now() + Duration::from_millis(400 + (run as u64 * 211) % 800);
        let writers = (0..100).map(|w| {
            let (client, address, csrf) = (client.clone(), address.clone(), csrf.clone());
            tokio::spawn(async move {
                let mut acked = Vec::new();
                let mut n = w * 100_000;
                while Instant::now() < deadline {
                    if let Some(id) = create(&client, &address, &csrf, n).await {
                        acked.push(id);
                    }
                    n += 1;
                }
                acked
            })
        });
        let handles: Vec<_> = writers.collect();
        tokio::time::sleep_until(deadline.into()).await;
        signal(server.id(), "-KILL");
        let _ = server.wait();
        let mut acked = Vec::new();
        for h in handles {
            acked.extend(h.await.unwrap());
        }

        // quire starts again on the same file; SQLite recovers the WAL.
        let (mut again, _) = start(site.command(quire_bin()).arg("serve"));
        signal(again.id(), "-TERM");
        let _ = again.wait();
        verify(&site.db()).await.expect("integrity after the crash");
        let present = ids_in(&site.db()).await;
        let lost = acked.iter().filter(|id| !present.contains(*id)).count();
        println!(
            "run {run}: {} acknowledged writes, {lost} lost",
            acked.len()
        );
        assert_eq!(lost, 0, "run {run}");
        assert!(!acked.is_empty());
    }
}

/// An S3-compatible store on loopback (moto, installed by the test command).
struct S3Server(Child, u16);

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn s3_server() -> S3Server {
    let moto = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/moto_server");
    assert!(
        moto.exists(),
        "moto_server is missing: run ./scripts/test.sh, which installs it"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(moto)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = S3Server(child, port);
    let client = reqwest::Client::new();
    let bucket = format!("http://127.0.0.1:{port}/quire");
    for _ in 0..100 {
        // Litestream does not create buckets; S3's CreateBucket is a plain PUT.
        if let Ok(res) = client.put(&bucket).send().await
            && res.status().is_success()
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("moto_server did not start");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_s3_compatible_replica_restores_every_write() {
    let _serial = SERIAL.lock().await;
    let s3 = s3_server().await;
    let url = format!(
        "s3://quire/db?endpoint=http://127.0.0.1:{}&region=us-east-1&forcePathStyle=true",
        s3.1
    );
    let site = Site::with_replica(Some(url));
    let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
    let mut sidecar = site.sidecar();
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    let mut written = Vec::new();
    for n in 0..20 {
        written.push(create(&client, &address, &csrf, n).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for n in 20..25 {
        written.push(create(&client, &address, &csrf, n).await.unwrap());
    }
    // The sidecar way to stop: quire first, then Litestream (which syncs on exit).
    signal(server.id(), "-TERM");
    let _ = server.wait();
    signal(sidecar.id(), "-TERM");
    let status = sidecar.wait().unwrap();
    assert!(status.success(), "litestream: {status}");

    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let out = site
        .command(quire_bin())
        .args(["restore", "--from-replica"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let present = ids_in(&site.db()).await;
    assert!(written.iter().all(|id| present.contains(id)));
    assert_eq!(verify(&site.db()).await.unwrap().documents, 25);
}

/// Runs deploy/entrypoint.sh for `site` (quire under it, without Litestream's
/// -exec) and returns quire's address, or the script's failure.
fn entrypoint(site: &Site) -> Result<(Child, String), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/entrypoint.sh");
    let mut cmd = site.command("sh");
    cmd.arg(script)
        .env("QUIRE_BIN", quire_bin())
        .env("LITESTREAM", litestream())
        .env("QUIRE_LITESTREAM_MODE", "none")
        .env("QUIRE_LITESTREAM_CONFIG", site.config());
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(port) = line.split("quire is ready port=").nth(1) {
                let _ = tx.send(Ok(port.split_whitespace().next().unwrap_or("").to_owned()));
            }
        }
        let _ = tx.send(Err("the entrypoint ended before quire was ready".to_owned()));
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

/// A replica holding `n` documents (quire and a sidecar ran, then stopped).
async fn site_with_replica(n: usize) -> Site {
    let site = Site::new();
    let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
    let mut sidecar = site.sidecar();
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for i in 0..n {
        create(&client, &address, &csrf, i).await.unwrap();
    }
    signal(server.id(), "-TERM");
    let _ = server.wait();
    signal(sidecar.id(), "-TERM");
    let _ = sidecar.wait();
    site
}

async fn documents_seen(address: &str) -> usize {
    let (client, _) = sign_in(address, "alice", PASSWORD).await;
    let page = client.get(format!("{address}/")).send().await.unwrap();
    page.text().await.unwrap().matches("<li>").count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrypoint_restores_an_empty_volume_and_never_starts_empty_over_a_replica() {
    let _serial = SERIAL.lock().await;
    let site = site_with_replica(7).await;

    // Empty volume, replica present: restore, then serve what was replicated.
    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let (mut quire, address) = entrypoint(&site).expect("restores and serves");
    assert_eq!(documents_seen(&address).await, 7);
    signal(quire.id(), "-TERM");
    let _ = quire.wait();

    // Data present: served as it is, no restore over it.
    assert!(site.db().exists());
    let (mut quire, address) = entrypoint(&site).expect("serves existing data");
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    create(&client, &address, &csrf, 99).await.unwrap();
    assert_eq!(
        documents_seen(&address).await,
        8,
        "local data, not the replica's 7"
    );
    signal(quire.id(), "-TERM");
    let _ = quire.wait();

    // A replica that cannot be read (its ltx folder is a file): the script stops
    // and creates nothing.
    let unreadable = site.dir.path().join("unreadable");
    std::fs::create_dir_all(&unreadable).unwrap();
    std::fs::write(unreadable.join("ltx"), "not a folder").unwrap();
    let broken = Site::with_replica(Some(format!("file://{}", unreadable.display())));
    std::fs::remove_dir_all(broken.dir.path().join("data")).unwrap();
    assert!(entrypoint(&broken).is_err());
    assert!(!broken.db().exists(), "never starts empty over a replica");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrypoint_starts_fresh_when_there_is_no_replica_yet() {
    let _serial = SERIAL.lock().await;
    let site = Site::new();
    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let (mut quire, address) = entrypoint(&site).expect("starts fresh");
    let res = reqwest::get(format!("{address}/readyz")).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    signal(quire.id(), "-TERM");
    let _ = quire.wait();
    assert!(site.db().exists());
}
