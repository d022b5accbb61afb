//! `quire serve` with JSON logs: one object per line, each request's id in it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use super::quire;

/// The server's output lines (stdout and stderr), as they come.
struct Server {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("q.db").display());
        let mut child = quire()
            .arg("serve")
            .env("QUIRE_DATABASE_URL", url)
            .env("QUIRE_BIND", "127.0.0.1:0")
            .env("QUIRE_WORKERS", "1")
            .env("QUIRE_LOG", "info")
            .env("QUIRE_LOG_FORMAT", "json")
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
    fn wait_for(&mut self, wanted: impl Fn(&str) -> bool) -> String {
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

    fn port(&mut self) -> u16 {
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

fn get(port: u16, path: &str, request_id: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: {request_id}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn json_logs_carry_the_request_id_and_never_the_words_of_a_search() {
    let mut server = Server::start();
    let port = server.port();

    let response = get(port, "/search?q=marmalade+secret", "probe-4711.a_b");
    let line = server.wait_for(|l| l.contains("probe-4711.a_b"));

    assert!(
        response
            .to_ascii_lowercase()
            .contains("x-request-id: probe-4711.a_b"),
        "{response}"
    );
    let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON object");
    let span = &json["span"];
    assert_eq!(span["request_id"], "probe-4711.a_b", "{line}");
    assert_eq!(span["method"], "GET", "{line}");
    assert_eq!(span["route"], "/search", "{line}");
    assert_eq!(span["status"], 303, "signed out: sent to sign in; {line}");
    assert!(span["elapsed_ms"].is_number(), "{line}");
    assert_eq!(json["message"], "request completed", "{line}");
    for seen in &server.seen {
        serde_json::from_str::<serde_json::Value>(seen).expect("every line is JSON");
        assert!(!seen.contains("marmalade"), "user text in the log: {seen}");
    }
}
