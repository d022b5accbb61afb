//! The page-load budget. The real server (actix app, SQLite file, templates,
//! stored HTML) runs on loopback; closed-loop clients request the document page
//! (1, 8 and 64 KB documents), the list, search and save, signed in, and every
//! request's latency goes into an HDR histogram. Exits non-zero when a route's
//! p99 is over `QUIRE_P99_BUDGET_MS` (default 50), search's over
//! `QUIRE_SEARCH_P99_BUDGET_MS` (default 100), the live results' for three
//! letters over `QUIRE_BENCH_LIVE_BUDGET_MS` (default 30) twice running (a route
//! over budget is measured once more, and the run says so), or a request fails.
//!
//! - `cargo bench --bench budget`: 10,000 documents (`QUIRE_BENCH_DOCS`), 3,000
//!   requests per route, then criterion's timing of each route.
//!   `QUIRE_BENCH_DB=/path/quire.db` keeps the seeded database between runs.
//! - `cargo bench --bench budget -- --quick`: 1,500 documents, 1,000 requests per
//!   route, criterion in quick mode; under two minutes (the test command runs it).
//! - `cargo test --all-targets`: a smoke run (debug build, 90 documents) of the
//!   same code and the same checks.
//!
//! Search has a budget of its own: the generated corpus is adversarial (58
//! words, every query matches nearly every document; docs/PERFORMANCE.md).
//! Real text (`benches/real-corpus.sh`) is held to the page budget there.
//!
//! The server measured is the `quire` binary of the same build, run as its own
//! process (it seeds the database too); `QUIRE_BENCH_SERVER=/path/to/quire`
//! measures another, such as the optimised binary of the Docker image, which
//! the test command does: `cargo test --bench budget -- --quick` then runs the
//! quick mode with the bench itself unoptimised, and nothing is built twice.
//!
//! `QUIRE_BENCH_CLIENTS` (default 4) sets how many clients run at once. Saves
//! count against the budget one at a time (people save now and then); the same
//! saves from that many clients at once are reported beside them.

mod common;

use std::time::Duration;

use common::budget::{Outcome, Route, measure};
use common::server::{self, SIZES};
use criterion::Criterion;

struct Mode {
    name: &'static str,
    docs: usize,
    requests: usize,
    criterion: bool,
    /// Whether a p99 over budget fails the run (request failures always do).
    enforce: bool,
}

fn mode() -> Mode {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|a| a == "--bench");
    let quick = args.iter().any(|a| a == "--quick");
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let mut m = match (bench, quick) {
        (_, true) => Mode {
            name: "quick",
            docs: 1_500,
            requests: 1_000,
            criterion: true,
            enforce: true,
        },
        (true, false) => Mode {
            name: "full",
            docs: 10_000,
            requests: 3_000,
            criterion: true,
            enforce: true,
        },
        (false, false) => Mode {
            name: "smoke",
            docs: 90,
            requests: 60,
            criterion: false,
            // A debug build measures the code, not the budget; the test command
            // also runs the quick mode, optimised, which enforces it.
            enforce: std::env::var_os("QUIRE_P99_BUDGET_MS").is_some(),
        },
    };
    m.docs = env("QUIRE_BENCH_DOCS").unwrap_or(m.docs);
    m.requests = env("QUIRE_BENCH_REQUESTS").unwrap_or(m.requests);
    m
}

fn main() {
    let mode = mode();
    let budget_ms: f64 = std::env::var("QUIRE_P99_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50.0);
    let search_ms: f64 = std::env::var("QUIRE_SEARCH_P99_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100.0);
    let live_ms: f64 = std::env::var("QUIRE_BENCH_LIVE_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30.0);
    let clients: usize = std::env::var("QUIRE_BENCH_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = server::database_dir(tmp.path(), mode.name == "full");
    let bin = std::env::var("QUIRE_BENCH_SERVER")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_quire").to_string());
    let running = rt.block_on(server::spawn(&bin, &dir, mode.docs.div_ceil(3)));
    println!(
        "page budget ({} mode): {bin}, {} documents ({} each of {}), {} requests per route, \
         {clients} clients, p99 budget {budget_ms} ms (search {search_ms} ms, live {live_ms} ms)",
        mode.name,
        running.ids.iter().map(Vec::len).sum::<usize>(),
        running.ids[0].len(),
        SIZES.map(|s| format!("{} KB", s / 1024)).join(" / "),
        mode.requests,
    );

    let routes = Route::all(&running);
    let limits = [budget_ms, search_ms, live_ms];
    let mut measured_again = Vec::new();
    let outcomes: Vec<Outcome> = routes
        .iter()
        .map(|route| {
            let first = rt.block_on(measure(&running, route, mode.requests, clients));
            // A p99 over budget with every request answered is measured once
            // more, and the route fails only when both are over: one stall of a
            // shared machine (another program's burst, a disk flush) moves the
            // p99 of 1,000 requests, and a slower quire is over both times.
            if first.failures() > 0 || first.breach(limits, mode.enforce).is_none() {
                return first;
            }
            measured_again.push(format!(
                "{}: p99 {:.2} ms, over budget, so measured again (below)",
                route.name,
                first.ms(0.99)
            ));
            rt.block_on(measure(&running, route, mode.requests, clients))
        })
        .collect();
    for note in &measured_again {
        println!("{note}");
    }
    println!(
        "{:<16} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "route", "clients", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms"
    );
    let mut breaches = Vec::new();
    let mut csv =
        String::from("route,clients,requests,requests_per_s,p50_ms,p90_ms,p99_ms,max_ms\n");
    for o in &outcomes {
        println!("{o}");
        csv.push_str(&o.csv());
        if let Some(why) = o.breach(limits, mode.enforce) {
            breaches.push(why);
        }
    }

    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/perf");
    if std::fs::create_dir_all(&out).is_ok() {
        let file = out.join(format!("budget-{}.csv", mode.name));
        if let Err(e) = std::fs::write(&file, csv) {
            eprintln!("could not write {}: {e}", file.display());
        }
    }

    if mode.criterion {
        let mut c = Criterion::default().configure_from_args();
        if mode.name == "quick" {
            c = c
                .warm_up_time(Duration::from_millis(300))
                .measurement_time(Duration::from_secs(1))
                .sample_size(20);
        }
        let mut group = c.benchmark_group("page");
        for route in &routes {
            group.bench_function(route.name, |b| {
                b.to_async(&rt)
                    .iter_custom(|iters| route.timed(&running, iters))
            });
        }
        group.finish();
        c.final_summary();
    }

    rt.block_on(running.stop());
    if breaches.is_empty() && mode.enforce {
        println!(
            "every route's p99 is within {budget_ms} ms (search {search_ms} ms, live {live_ms} ms)"
        );
    } else if breaches.is_empty() {
        println!(
            "{} mode: every request succeeded; p99 budget not enforced",
            mode.name
        );
    } else {
        for b in &breaches {
            eprintln!("BUDGET BREACH: {b}");
        }
        std::process::exit(1);
    }
}
