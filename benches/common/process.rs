//! quire as its own process (the release or bench build of the binary), so a
//! bench can read its peak memory and kill it with SIGKILL.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Process {
    pub child: Child,
    pub address: String,
    pub client: reqwest::Client,
    pub csrf: String,
}

pub const USER: &str = "bench";
pub const PASSWORD: &str = "bench password 1234";

fn quire(bin: &str, dir: &Path, env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env(
        "QUIRE_DATABASE_URL",
        format!("sqlite://{}", dir.join("quire.db").display()),
    )
    .env("QUIRE_LOG", "warn")
    .envs(env.iter().copied());
    cmd
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Starts `quire serve` over `dir` (creating the bench user) and signs in. `bin`
/// is the binary, `env!("CARGO_BIN_EXE_quire")` in a bench (Cargo names it only
/// for benches and tests, and examples share this module).
pub async fn start(bin: &str, dir: &Path, env: &[(&str, &str)]) -> Process {
    let mut add = quire(bin, dir, env)
        .args(["user", "add", USER, "--admin", "--password-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("quire user add");
    if let Some(mut stdin) = add.stdin.take() {
        writeln!(stdin, "{PASSWORD}").expect("password to quire user add");
    }
    // Fails harmlessly when the user exists from an earlier run.
    add.wait().expect("quire user add finished");

    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let child = quire(bin, dir, env)
        .arg("serve")
        .env("QUIRE_BIND", &bind)
        .stdout(Stdio::null())
        .spawn()
        .expect("quire serve");
    let address = format!("http://{bind}");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .pool_max_idle_per_host(512)
        .build()
        .expect("client");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let ready = client.get(format!("{address}/readyz")).send().await;
        if ready.is_ok_and(|r| r.status().is_success()) {
            break;
        }
        assert!(Instant::now() < deadline, "quire did not become ready");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let csrf = super::sign_in(&client, &address, USER, PASSWORD).await;
    Process {
        child,
        address,
        client,
        csrf,
    }
}

/// A bench that ends or panics without stopping its server leaves none behind.
impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// Peak resident memory so far, in MiB (`VmHWM`).
    pub fn peak_rss_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    }

    /// SIGTERM and wait: the server drains and closes the database.
    pub fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }

    /// SIGKILL: no chance to flush or close anything.
    pub fn kill_9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
