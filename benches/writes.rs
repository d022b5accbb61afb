//! Writes through HTTP: many clients each running document lifecycles (create,
//! 10 updates, delete) against quire (its own process, `normal` and `full`
//! durability) and, in the same run, against a file-per-document store behind the
//! same routes (temp file + rename, with and without fsync). Then quire is killed
//! with SIGKILL in the middle of the same load and every acknowledged write is
//! checked in the database file.
//!
//! `cargo bench --bench writes`: 100 clients × 100 lifecycles (`QUIRE_WRITE_CLIENTS`,
//! `QUIRE_WRITE_LIFECYCLES`). Under `cargo test --all-targets`: 4 × 3, same checks.
//! `QUIRE_BIN` names another build of quire to measure (an earlier release), so
//! two builds are compared against the same file store in one session.

mod common;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::process;
use hdrhistogram::Histogram;
use quire::seed::{Rng, document};
use reqwest::StatusCode;

const UPDATES: usize = 10;
const QUIRE: &str = env!("CARGO_BIN_EXE_quire");

/// What the server acknowledged for a document: version, body, in the trash.
type Acked = Mutex<HashMap<String, (i64, String, bool)>>;

struct Target<'a> {
    address: &'a str,
    client: &'a reqwest::Client,
    csrf: &'a str,
}

struct Stats {
    hist: Histogram<u64>,
    wall: Duration,
    failures: Vec<String>,
}

async fn post(t: &Target<'_>, path: &str, fields: &[(&str, &str)]) -> Result<String, String> {
    let mut form = fields.to_vec();
    form.push(("csrf", t.csrf));
    let res = t
        .client
        .post(format!("{}{path}", t.address))
        .form(&form)
        .send()
        .await
        .map_err(|e| format!("{path}: {e}"))?;
    let status = res.status();
    let location = res
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let _ = res.bytes().await;
    if status != StatusCode::SEE_OTHER {
        return Err(format!("{path}: answered {status}"));
    }
    Ok(location)
}

/// One client's lifecycles; stops at the first failure.
async fn lifecycles(
    t: &Target<'_>,
    client: usize,
    count: usize,
    acked: Option<&Acked>,
    hist: &mut Histogram<u64>,
) -> Result<(), String> {
    let mut rng = Rng::new(client as u64 + 17);
    let record = |hist: &mut Histogram<u64>, started: Instant| {
        let _ = hist.record(started.elapsed().as_micros() as u64);
    };
    for _ in 0..count {
        let (title, body) = document(&mut rng, 2048);
        let started = Instant::now();
        let location = post(t, "/docs", &[("title", &title), ("body", &body)]).await?;
        record(hist, started);
        let id = location
            .strip_prefix("/d/")
            .and_then(|l| l.split('?').next())
            .ok_or_else(|| format!("create redirected to {location:?}"))?
            .to_owned();
        if let Some(a) = acked {
            a.lock()
                .expect("acked")
                .insert(id.clone(), (1, body.clone(), false));
        }
        for version in 1..=UPDATES as i64 {
            let cut = (0..=1500.min(body.len()))
                .rev()
                .find(|&i| body.is_char_boundary(i))
                .unwrap_or(0);
            let body = format!("{}\n\nEdit {version} by client {client}.\n", &body[..cut]);
            let v = version.to_string();
            let started = Instant::now();
            let path = format!("/d/{id}");
            post(
                t,
                &path,
                &[("title", &title), ("body", &body), ("version", &v)],
            )
            .await?;
            record(hist, started);
            if let Some(a) = acked {
                a.lock()
                    .expect("acked")
                    .insert(id.clone(), (version + 1, body, false));
            }
        }
        let started = Instant::now();
        post(t, &format!("/d/{id}/delete"), &[]).await?;
        record(hist, started);
        if let Some(a) = acked
            && let Some(entry) = a.lock().expect("acked").get_mut(&id)
        {
            entry.2 = true;
        }
    }
    Ok(())
}

async fn run(t: &Target<'_>, clients: usize, count: usize, acked: Option<&Acked>) -> Stats {
    let started = Instant::now();
    let runs = (0..clients).map(|c| async move {
        let mut hist = Histogram::<u64>::new(3).expect("histogram");
        let result = lifecycles(t, c, count, acked, &mut hist).await;
        (hist, result)
    });
    let mut hist = Histogram::<u64>::new(3).expect("histogram");
    let mut failures = Vec::new();
    for (h, r) in futures::future::join_all(runs).await {
        hist.add(h).expect("merge");
        failures.extend(r.err());
    }
    Stats {
        hist,
        wall: started.elapsed(),
        failures,
    }
}

fn row(
    csv: &mut String,
    name: &str,
    s: &Stats,
    (clients, count): (usize, usize),
    rss: Option<f64>,
) -> f64 {
    let per_s = (clients * count) as f64 / s.wall.as_secs_f64();
    csv.push_str(&format!(
        "{name},{:.2},{per_s:.1},{:.0},{:.3},{:.3},{}\n",
        s.wall.as_secs_f64(),
        s.hist.len() as f64 / s.wall.as_secs_f64(),
        s.hist.value_at_quantile(0.5) as f64 / 1000.0,
        s.hist.value_at_quantile(0.99) as f64 / 1000.0,
        rss.map_or(String::new(), |r| format!("{r:.1}")),
    ));
    println!(
        "{name:<26} {:>8.1} {:>10.0} {:>10.0} {:>8.2} {:>8.2} {:>8}",
        s.wall.as_secs_f64(),
        per_s,
        s.hist.len() as f64 / s.wall.as_secs_f64(),
        s.hist.value_at_quantile(0.5) as f64 / 1000.0,
        s.hist.value_at_quantile(0.99) as f64 / 1000.0,
        rss.map_or("-".into(), |r| format!("{r:.0}")),
    );
    if let Some(f) = s.failures.first() {
        eprintln!("{name}: {} clients failed, first: {f}", s.failures.len());
        std::process::exit(1);
    }
    per_s
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let clients = env("QUIRE_WRITE_CLIENTS", if full { 100 } else { 4 });
    let count = env("QUIRE_WRITE_LIFECYCLES", if full { 100 } else { 3 });
    let bin = std::env::var("QUIRE_BIN").unwrap_or_else(|_| QUIRE.to_owned());
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        println!(
            "{clients} clients × {count} lifecycles (create, {UPDATES} updates, delete) over HTTP"
        );
        println!(
            "{:<26} {:>8} {:>10} {:>10} {:>8} {:>8} {:>8}",
            "store", "s", "cycles/s", "writes/s", "p50 ms", "p99 ms", "RSS MiB"
        );
        let mut rates = HashMap::new();
        let mut csv =
            String::from("store,seconds,cycles_per_s,writes_per_s,p50_ms,p99_ms,peak_rss_mib\n");
        for durability in ["normal", "full"] {
            let dir = tempfile::tempdir().expect("temp dir");
            let p = process::start(&bin, dir.path(), &[("QUIRE_DURABILITY", durability)]).await;
            let t = Target {
                address: &p.address,
                client: &p.client,
                csrf: &p.csrf,
            };
            let stats = run(&t, clients, count, None).await;
            let name = format!("quire durability {durability}");
            let rss = Some(p.peak_rss_mib());
            let rate = row(&mut csv, &name, &stats, (clients, count), rss);
            rates.insert(durability, rate);
            p.stop();
        }
        for fsync in [true, false] {
            let dir = tempfile::tempdir().expect("temp dir");
            let address = common::filestore::start(dir.path(), fsync);
            let client = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .pool_max_idle_per_host(512)
                .build()
                .expect("client");
            let t = Target {
                address: &address,
                client: &client,
                csrf: "",
            };
            let stats = run(&t, clients, count, None).await;
            let name = format!("files temp+rename{}", if fsync { "+fsync" } else { "" });
            let rate = row(&mut csv, &name, &stats, (clients, count), None);
            rates.insert(if fsync { "files+fsync" } else { "files" }, rate);
        }
        println!(
            "quire normal / files+fsync: {:.2}×, quire full / files+fsync: {:.2}×, \
             quire normal / files without fsync: {:.2}×",
            rates["normal"] / rates["files+fsync"],
            rates["full"] / rates["files+fsync"],
            rates["normal"] / rates["files"],
        );
        let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/perf");
        if full && std::fs::create_dir_all(&out).is_ok() {
            let _ = std::fs::write(out.join("writes.csv"), csv);
        }
        crash_check(&bin, clients, count).await;
    });
}

/// The same load against quire, killed with SIGKILL part-way; then every
/// acknowledged create, update and delete must be in the database file.
async fn crash_check(bin: &str, clients: usize, count: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = process::start(bin, dir.path(), &[]).await;
    let acked = Acked::default();
    let t = Target {
        address: &p.address,
        client: &p.client,
        csrf: &p.csrf,
    };
    let load = run(&t, clients, count, Some(&acked));
    let pause = async {
        // Kill once a good share of the work is acknowledged.
        while acked.lock().expect("acked").len() < (clients * count / 3).max(1) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::select! {
        _ = load => {},
        _ = pause => {},
    }
    p.kill_9();
    let mut config = quire::config::Config::from_env();
    config.database_url = format!("sqlite://{}", dir.path().join("quire.db").display());
    let db = quire::db::Db::open(&config)
        .await
        .expect("reopen after kill -9");
    let acked = acked.into_inner().expect("acked");
    let mut lost = Vec::new();
    for (id, (version, body, trashed)) in &acked {
        let row: Option<(i64, String, Option<i64>)> =
            quire::db::query_as("SELECT version, body, deleted_at FROM documents WHERE id = ?1")
                .bind(id)
                .fetch_optional(&db.read)
                .await
                .expect("read back");
        let kept = match row {
            None => false,
            Some((_, _, deleted)) if *trashed => deleted.is_some(),
            // An update or delete may have landed without its answer arriving.
            Some((v, b, _)) => (v == *version && b == *body) || v == version + 1,
        };
        if !kept {
            lost.push(id.clone());
        }
    }
    println!(
        "kill -9 under load: {} acknowledged documents checked, {} lost",
        acked.len(),
        lost.len()
    );
    if !lost.is_empty() {
        eprintln!("lost after kill -9: {lost:?}");
        std::process::exit(1);
    }
}
