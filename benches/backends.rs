//! The document page and the save path (with the list and search pages beside
//! them) on SQLite and on PostgreSQL, in one run:
//! the same server, seed, routes and closed-loop clients as the page budget
//! (benches/budget.rs), once per backend, then the ratio.
//!
//! `cargo bench --bench backends` (3,000 documents, 2,000 requests per route);
//! `-- --quick` (600 documents, 400 requests); under `cargo test` a smoke run (60
//! documents) that fails if any request fails. PostgreSQL is the server named by
//! `QUIRE_BENCH_POSTGRES` (default postgres://postgres@127.0.0.1:5432, as
//! `scripts/postgres.sh` starts it); each run makes a throwaway database there and
//! drops it. Rows go to target/perf/backends.csv.

mod common;

use common::budget::{Outcome, Route, measure};
use common::server;

const ROUTES: [&str; 7] = [
    "document 1KB",
    "document 8KB",
    "document 64KB",
    "list",
    "search",
    "save 8KB",
    "save 8KB busy",
];

fn env(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

async fn throwaway_database(server: &str, create: bool, name: &str) {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::postgres::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .expect("connecting to PostgreSQL (QUIRE_BENCH_POSTGRES)");
    let sql = if create {
        format!("CREATE DATABASE {name}")
    } else {
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    };
    conn.execute(sqlx::AssertSqlSafe(sql))
        .await
        .expect("create/drop");
    conn.close().await.ok();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --all-targets` runs this without `--bench`: a smoke run.
    let mode = match (
        args.iter().any(|a| a == "--bench"),
        args.iter().any(|a| a == "--quick"),
    ) {
        (true, false) => "full",
        (true, true) => "quick",
        (false, _) => "smoke",
    };
    let (docs, requests) = match mode {
        "full" => (3000, 2000),
        "quick" => (600, 400),
        _ => (60, 40),
    };
    let docs = env("QUIRE_BENCH_DOCS").unwrap_or(docs);
    let requests = env("QUIRE_BENCH_REQUESTS").unwrap_or(requests);
    let clients = env("QUIRE_BENCH_CLIENTS").unwrap_or(4);
    let pg = std::env::var("QUIRE_BENCH_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
    let name = format!("quire_bench_{}", std::process::id());
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let tmp = tempfile::tempdir().expect("temp dir");

    let backends = [
        (
            "sqlite",
            format!("sqlite://{}", tmp.path().join("quire.db").display()),
        ),
        ("postgres", format!("{pg}/{name}")),
    ];
    rt.block_on(throwaway_database(&pg, true, &name));
    println!(
        "backends ({mode}): {docs} documents (a third each of 1, 8 and 64 KB), {requests} requests \
         per route, {clients} clients (saves: 1, then {clients})"
    );
    let mut results: Vec<(&str, Vec<Outcome>)> = Vec::new();
    for (backend, url) in &backends {
        let outcomes = rt.block_on(async {
            let running = server::start_at(url.clone(), docs.div_ceil(3), 0).await;
            let mut out = Vec::new();
            for route in Route::all(&running)
                .into_iter()
                .filter(|r| ROUTES.contains(&r.name))
            {
                out.push(measure(&running, &route, requests, clients).await);
            }
            running.stop().await;
            out
        });
        results.push((backend, outcomes));
    }
    rt.block_on(throwaway_database(&pg, false, &name));

    println!(
        "{:<14} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "route", "backend", "clients", "req/s", "p50 ms", "p99 ms", "max ms", "vs sqlite"
    );
    let mut csv = String::from("route,backend,requests_per_s,p50_ms,p99_ms,max_ms,failures\n");
    let mut failed = 0;
    for (i, route) in ROUTES.iter().enumerate() {
        let base = results[0].1[i].numbers().1;
        for (backend, outcomes) in &results {
            let o = &outcomes[i];
            let (_, rate, [p50, _, p99, max]) = o.numbers();
            failed += o.failures();
            println!(
                "{route:<14} {backend:>8} {:>8} {rate:>9.0} {p50:>9.2} {p99:>9.2} {max:>9.2} {:>9.2}x",
                if route.starts_with("save 8KB") && !route.ends_with("busy") {
                    1
                } else {
                    clients
                },
                rate / base
            );
            csv.push_str(&format!(
                "{},{backend},{rate:.0},{p50:.3},{p99:.3},{max:.3},{}\n",
                o.name(),
                o.failures()
            ));
        }
    }
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/perf");
    if std::fs::create_dir_all(&out).is_ok() {
        let name = if mode == "full" {
            "backends.csv".to_owned()
        } else {
            format!("backends-{mode}.csv")
        };
        std::fs::write(out.join(name), csv).ok();
    }
    if failed > 0 {
        eprintln!("{failed} requests failed");
        std::process::exit(1);
    }
}
