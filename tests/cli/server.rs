//! `quire serve` as a child process: its log lines as they come, its port, a
//! signed-in client, a clean stop.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use super::quire;

/// The server's output lines (stdout and stderr), as they come.
pub struct Server {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
    _dir: tempfile::TempDir,
}

pub const PASSWORD: &str = "a long enough password";

impl Server {
    /// A server over a new database with the administrator `alice`.
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// The same, with more settings for `quire serve`.
    pub fn start_with(env: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("q.db").display());
        let mut add = quire()
            .args(["user", "add", "alice", "--admin", "--password-stdin"])
            .env("QUIRE_DATABASE_URL", &url)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        writeln!(add.stdin.take().unwrap(), "{PASSWORD}").unwrap();
        assert!(add.wait().unwrap().success(), "adding alice");
        Self::serve(dir, url, env)
    }

    /// A server over a new database with no account at all: a first run.
    pub fn start_empty() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("q.db").display());
        Self::serve(dir, url, &[])
    }

    fn serve(dir: tempfile::TempDir, url: String, env: &[(&str, &str)]) -> Self {
        let mut child = quire()
            .arg("serve")
            .env("QUIRE_DATABASE_URL", url)
            .env("QUIRE_BIND", "127.0.0.1:0")
            .env("QUIRE_WORKERS", "1")
            .env("QUIRE_LOG", "info")
            .env("QUIRE_LOG_FORMAT", "json")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        for stream in [Box::new(out) as Box<dyn Read + Send>, Box::new(err)] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Self {
            child,
            lines,
            seen: Vec::new(),
            _dir: dir,
        }
    }

    /// The first line (read so far or still to come) that `wanted` accepts.
    pub fn wait_for(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        if let Some(line) = self.seen.iter().find(|l| wanted(l)) {
            return line.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            let Ok(line) = self.lines.recv_timeout(left) else {
                break;
            };
            self.seen.push(line.clone());
            if wanted(&line) {
                return line;
            }
        }
        panic!("no such line in:\n{}", self.seen.join("\n"));
    }

    /// Stops the server (SIGTERM) and reads its output to the end, so every line
    /// it wrote is in `seen`.
    pub fn stop_and_read_all(&mut self) -> &[String] {
        let pid = self.child.id().to_string();
        let stopped = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(stopped.success());
        assert!(self.child.wait().unwrap().success(), "a clean stop");
        // Both pipes close when the process ends; the readers then hang up.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(20)) {
            self.seen.push(line);
        }
        &self.seen
    }

    /// The most memory the server has held so far (its VmHWM), in bytes.
    pub fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM");
        kib * 1024
    }

    /// The folder that holds the server's database (`q.db`).
    pub fn folder(&self) -> &std::path::Path {
        self._dir.path()
    }

    /// Whether the server process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn port(&mut self) -> u16 {
        let ready = self.wait_for(|l| l.contains("quire is ready"));
        let json: serde_json::Value = serde_json::from_str(&ready).expect("a JSON line");
        json["port"].as_u64().expect("the port") as u16
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client not yet signed in, and the CSRF token of the sign-in form.
pub async fn anonymous(base: &str) -> (reqwest::Client, String) {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let form = client.get(format!("{base}/login")).send().await.unwrap();
    let csrf = csrf_of(&form.text().await.unwrap());
    (client, csrf)
}

/// A client signed in as alice, and its CSRF token.
pub async fn sign_in(base: &str) -> (reqwest::Client, String) {
    let (client, csrf) = anonymous(base).await;
    let res = client
        .post(format!("{base}/login"))
        .form(&[
            ("username", "alice"),
            ("password", PASSWORD),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303, "signed in");
    let home = client.get(format!("{base}/")).send().await.unwrap();
    let csrf = csrf_of(&home.text().await.unwrap());
    (client, csrf)
}

pub fn csrf_of(html: &str) -> String {
    html.split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a CSRF field")
        .to_owned()
}
