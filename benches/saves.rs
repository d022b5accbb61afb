//! Saves through the JSON API: `QUIRE_SAVE_CLIENTS` connections (10), each saving
//! its own 8 KB document over and over (`PUT` with `If-Match`) for
//! `QUIRE_SAVE_SECONDS` (20) against quire in its own process. Every answer must
//! be a 200 with the next version; at the end each document's version must equal
//! its count of acknowledged saves plus one. Meanwhile one more client saves a
//! new word now and then and asks `/search` until the document is found: the
//! search lag.
//!
//! `QUIRE_SAVE_DATABASE_URL` runs it on that database instead of a new SQLite
//! file (PostgreSQL: an empty database of its own), and `QUIRE_SAVE_INSTANCES`
//! (1) starts that many servers on it, the connections spread over them.
//! `QUIRE_BIN` names another build of quire to measure (an earlier release).
//! `QUIRE_SAVE_SHAPE=engineering` saves realistic engineering pages instead of
//! prose (a table and four code blocks, `common::engineering`); each save
//! still adds one line of prose, as an edit does.
//!
//! `cargo bench --bench saves`; under `cargo test --all-targets`: 2 clients, 1 s.

mod common;

use std::time::{Duration, Instant};

use common::process;
use hdrhistogram::Histogram;
use quire::seed::{Rng, document};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, ETAG, IF_MATCH};

const QUIRE: &str = env!("CARGO_BIN_EXE_quire");

struct Api<'a> {
    address: &'a str,
    client: &'a reqwest::Client,
    bearer: String,
}

impl Api<'_> {
    /// Creates a document; its id and version.
    async fn create(&self, title: &str, body: &str) -> (String, i64) {
        let res = self
            .client
            .post(format!("{}/api/v1/documents", self.address))
            .header(AUTHORIZATION, &self.bearer)
            .json(&serde_json::json!({ "title": title, "body": body }))
            .send()
            .await
            .expect("POST /api/v1/documents");
        assert_eq!(res.status(), StatusCode::CREATED, "create");
        let json: serde_json::Value = res.json().await.expect("created JSON");
        let id = json["id"].as_str().expect("id").to_owned();
        (id, json["version"].as_i64().expect("version"))
    }

    /// Saves over `version`; the new version, or what went wrong.
    async fn save(&self, id: &str, version: i64, title: &str, body: &str) -> Result<i64, String> {
        let res = self
            .client
            .put(format!("{}/api/v1/documents/{id}", self.address))
            .header(AUTHORIZATION, &self.bearer)
            .header(IF_MATCH, format!("\"{version}\""))
            .json(&serde_json::json!({ "title": title, "body": body }))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = res.status();
        let etag = res
            .headers()
            .get(ETAG)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim_matches('"').parse::<i64>().ok());
        let _ = res.bytes().await;
        match (status, etag) {
            (StatusCode::OK, Some(v)) if v == version + 1 => Ok(v),
            other => Err(format!("save over {version} answered {other:?}")),
        }
    }

    async fn version(&self, id: &str) -> i64 {
        let res = self
            .client
            .get(format!("{}/api/v1/documents/{id}", self.address))
            .header(AUTHORIZATION, &self.bearer)
            .send()
            .await
            .expect("GET");
        let json: serde_json::Value = res.json().await.expect("document JSON");
        json["version"].as_i64().expect("version")
    }
}

/// Makes an API token through the account page and returns `Bearer …`.
async fn bearer(p: &process::Process) -> String {
    let page = p
        .client
        .post(format!("{}/account/tokens", p.address))
        .form(&[("name", "saves bench"), ("csrf", &p.csrf)])
        .send()
        .await
        .expect("POST /account/tokens")
        .text()
        .await
        .expect("account page");
    let start = page.find("qt_").expect("the page shows the new token");
    let token: String = page[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    format!("Bearer {token}")
}

/// One connection's saves until `until`: (saves acknowledged, the document, failures).
async fn saver(
    api: &Api<'_>,
    client: u64,
    until: Instant,
    hist: &mut Histogram<u64>,
) -> (i64, String, Option<String>) {
    let mut rng = Rng::new(client + 101);
    let (title, body) = match std::env::var("QUIRE_SAVE_SHAPE").as_deref() {
        Ok("engineering") => common::engineering::page(&mut rng, 8192),
        _ => document(&mut rng, 8192),
    };
    let (id, mut version) = api.create(&title, &body).await;
    let mut saves = 0;
    while Instant::now() < until {
        let edited = format!("{body}\n\nSave {saves} by connection {client}.\n");
        let started = Instant::now();
        match api.save(&id, version, &title, &edited).await {
            Ok(v) => {
                let _ = hist.record(started.elapsed().as_micros() as u64);
                version = v;
                saves += 1;
            }
            Err(e) => return (saves, id, Some(e)),
        }
    }
    (saves, id, None)
}

/// Saves a new word every ~100 ms and times how long until `/search` finds it.
async fn search_lag(p: &process::Process, api: &Api<'_>, until: Instant) -> Histogram<u64> {
    let mut hist = Histogram::<u64>::new(3).expect("histogram");
    let (id, mut version) = api.create("Search lag probe", "Nothing yet.").await;
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        let word = format!("lagprobe{n}x{}", std::process::id());
        let body = format!("The word of the moment is {word}.");
        version = match api.save(&id, version, "Search lag probe", &body).await {
            Ok(v) => v,
            Err(e) => panic!("search probe save: {e}"),
        };
        let saved = Instant::now();
        loop {
            let page = p
                .client
                .get(format!("{}/search?q={word}", p.address))
                .send()
                .await
                .expect("GET /search")
                .text()
                .await
                .unwrap_or_default();
            if page.contains(&id) {
                let _ = hist.record(saved.elapsed().as_micros() as u64);
                break;
            }
            assert!(
                saved.elapsed() < Duration::from_secs(30),
                "{word} never found"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    hist
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let clients = env("QUIRE_SAVE_CLIENTS", if full { 10 } else { 2 });
    let seconds = env("QUIRE_SAVE_SECONDS", if full { 20 } else { 1 });
    let instances = env("QUIRE_SAVE_INSTANCES", 1).max(1);
    let bin = std::env::var("QUIRE_BIN").unwrap_or_else(|_| QUIRE.to_owned());
    let url = std::env::var("QUIRE_SAVE_DATABASE_URL").ok();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let db_env: Vec<(&str, &str)> = url.iter().map(|u| ("QUIRE_DATABASE_URL", u.as_str())).collect();
        let mut servers = Vec::new();
        for _ in 0..instances {
            servers.push(process::start(&bin, dir.path(), &db_env).await);
        }
        let mut apis = Vec::new();
        for p in &servers {
            apis.push(Api {
                address: &p.address,
                client: &p.client,
                bearer: bearer(p).await,
            });
        }
        let (p, api) = (&servers[0], &apis[0]);
        let started = Instant::now();
        let until = started + Duration::from_secs(seconds);
        let savers = (0..clients).map(|c| {
            let api = &apis[c as usize % apis.len()];
            async move {
                let mut hist = Histogram::<u64>::new(3).expect("histogram");
                let out = saver(api, c, until, &mut hist).await;
                (hist, out)
            }
        });
        let (results, lag) =
            futures::join!(futures::future::join_all(savers), search_lag(p, api, until));
        let wall = started.elapsed().as_secs_f64();
        let mut hist = Histogram::<u64>::new(3).expect("histogram");
        let mut failures = Vec::new();
        let mut lost = 0;
        for (h, (saves, id, failed)) in results {
            hist.add(h).expect("merge");
            failures.extend(failed);
            // Every acknowledged save is a version of its own.
            if api.version(&id).await != saves + 1 {
                lost += 1;
            }
        }
        let q = |h: &Histogram<u64>, x: f64| h.value_at_quantile(x) as f64 / 1000.0;
        let shape = std::env::var("QUIRE_SAVE_SHAPE").unwrap_or_else(|_| "prose".into());
        println!(
            "{clients} connections × {seconds} s on {instances} server(s), 8 KB {shape} saves with If-Match: \
             {} saves, {:.0} saves/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, peak RSS {:.0} MiB",
            hist.len(),
            hist.len() as f64 / wall,
            q(&hist, 0.5),
            q(&hist, 0.99),
            hist.max() as f64 / 1000.0,
            p.peak_rss_mib(),
        );
        println!(
            "search finds a saved word after: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} probes)",
            q(&lag, 0.5),
            q(&lag, 0.99),
            lag.max() as f64 / 1000.0,
            lag.len()
        );
        for p in servers {
            p.stop();
        }
        if let Some(f) = failures.first() {
            eprintln!("{} connections failed, first: {f}", failures.len());
            std::process::exit(1);
        }
        if lost > 0 {
            eprintln!("{lost} documents' versions differ from their acknowledged saves");
            std::process::exit(1);
        }
    });
}
