//! Search latency over a large generated corpus: p50/p99 per kind of query.
//!
//! `cargo bench --bench search` — 100,000 documents of ~8 KB by default. Set
//! `QUIRE_BENCH_DOCS` for another count and `QUIRE_BENCH_DB=/path/q.db` to keep the
//! seeded database between runs (it is reused when it already holds documents).

mod common;

use std::time::Instant;

use hdrhistogram::Histogram;
use quire::documents;

/// Kind, query, and whether it matches in any seeded corpus (the title number
/// only in one of more than 4,242 documents).
const QUERIES: &[(&str, &str, bool)] = &[
    ("common word", "garden", true),
    ("two words", "garden ledger", true),
    ("prefix", "lant", true),
    ("phrase", "\"copper signal\"", true),
    ("part of a word", "rchiv", true),
    ("accents folded", "cafe", true),
    ("CJK", "検索", true),
    ("rare (title number)", "4242", false),
    ("no match", "xyzzy", false),
    ("hostile", "\"NEAR(* -title:", false),
];

fn main() {
    // `cargo bench` passes --bench; `cargo test --all-targets` does not, and then
    // this runs as a quick smoke test of the same code on a small corpus.
    let full = std::env::args().any(|a| a == "--bench");
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let docs = env("QUIRE_BENCH_DOCS", if full { 100_000 } else { 300 });
    let rounds = env("QUIRE_BENCH_ROUNDS", if full { 30 } else { 2 });
    let rt = tokio::runtime::Runtime::new().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var("QUIRE_BENCH_DB")
        .ok()
        .filter(|_| full)
        .map(|p| std::path::PathBuf::from(p).parent().unwrap().to_path_buf())
        .unwrap_or_else(|| tmp.path().to_path_buf());
    std::fs::create_dir_all(&dir).unwrap();
    rt.block_on(async {
        let (db, config) = common::open_db(&dir).await;
        let have: i64 = quire::db::query_scalar("SELECT count(*) FROM documents")
            .fetch_one(&db.read)
            .await
            .unwrap();
        if (have as usize) < docs {
            let started = Instant::now();
            quire::seed::seed(&db, docs - have as usize, 8192, 11, config.max_doc_bytes)
                .await
                .unwrap();
            println!(
                "seeded {} documents in {:.1} s",
                docs - have as usize,
                started.elapsed().as_secs_f64()
            );
        }
        println!("search over {docs} documents of ~8 KB, {rounds} rounds per query (ms)");
        println!(
            "{:<22} {:>6} {:>9} {:>9} {:>9}",
            "query", "hits", "p50", "p99", "max"
        );
        let mut all = Histogram::<u64>::new(3).unwrap();
        for &(kind, q, matches) in QUERIES {
            let mut h = Histogram::<u64>::new(3).unwrap();
            let mut hits = 0;
            for _ in 0..rounds {
                let t = Instant::now();
                let found = documents::search(&db, q, 50, documents::Caller::Quire).await;
                let ns = t.elapsed().as_nanos() as u64;
                // A failed query is quick and finds nothing: it must not pass as
                // a fast search, in the smoke run or the real one.
                assert!(!found.failed, "the {kind} query {q:?} failed");
                hits = found.hits.len();
                assert!(hits > 0 || !matches, "the {kind} query {q:?} found nothing");
                h.record(ns).unwrap();
                all.record(ns).unwrap();
            }
            println!(
                "{:<22} {:>6} {:>9} {:>9} {:>9}",
                kind,
                hits,
                common::ms(h.value_at_quantile(0.5)),
                common::ms(h.value_at_quantile(0.99)),
                common::ms(h.max())
            );
        }
        println!(
            "{:<22} {:>6} {:>9} {:>9} {:>9}",
            "all queries",
            "",
            common::ms(all.value_at_quantile(0.5)),
            common::ms(all.value_at_quantile(0.99)),
            common::ms(all.max())
        );
        db.close().await;
    });
}
