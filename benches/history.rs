//! Revision storage: bytes on disk for 100 one-line edits of a 10 KB document (raw
//! vs stored; fails above 5%), and the time to read the oldest of 1,000 revisions.
//!
//! `cargo bench --bench history`

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use quire::documents::{self, DocId, OnStale, Valid};
use quire::seed::{Rng, document};

const STORED_LIMIT: f64 = 0.05;

/// A document of ~`size` bytes, then `edits` saves each changing one line.
async fn edited(db: &quire::db::Db, size: usize, edits: i64) -> (DocId, u64) {
    let (title, mut body) = document(&mut Rng::new(3), size);
    let mut raw = body.len() as u64;
    let doc = documents::create(
        db,
        Valid::parse(&title, &body, 1 << 20).unwrap(),
        documents::Caller::Quire,
    )
    .await
    .unwrap();
    let id = DocId::parse(&doc.id).unwrap();
    let lines = body.lines().count();
    for v in 1..=edits {
        let target = (v as usize * 7) % lines;
        body = body
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == target {
                    format!("{l} edit {v}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        raw += body.len() as u64;
        documents::save(
            db,
            &id,
            v,
            Valid::parse(&title, &body, 1 << 20).unwrap(),
            OnStale::Refuse,
            documents::Caller::Quire,
        )
        .await
        .unwrap();
    }
    (id, raw)
}

fn storage_ratio() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let (db, _) = common::open_db(dir.path()).await;
        let (_, raw) = edited(&db, 10 * 1024, 100).await;
        let (data, rows): (i64, i64) =
            quire::db::query_as("SELECT sum(length(data)), count(*) FROM revision_texts")
                .fetch_one(&db.read)
                .await
                .unwrap();
        let ratio = data as f64 / raw as f64;
        println!(
            "history/storage: 101 revisions of a 10 KB document, 100 one-line edits: \
             raw {raw} bytes, stored {data} bytes in {rows} texts = {:.2}% of raw (limit {:.0}%)",
            ratio * 100.0,
            STORED_LIMIT * 100.0
        );
        assert!(
            ratio <= STORED_LIMIT,
            "revision storage is {:.2}% of raw, over the {:.0}% budget",
            ratio * 100.0,
            STORED_LIMIT * 100.0
        );
        db.close().await;
    });
}

fn oldest_of_1000(c: &mut Criterion) {
    storage_ratio();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (db, id) = rt.block_on(async {
        let (db, _) = common::open_db(dir.path()).await;
        let (id, _) = edited(&db, 10 * 1024, 999).await;
        (db, id)
    });
    c.bench_function("history/read oldest of 1000 revisions (10 KB)", |b| {
        b.to_async(&rt).iter(|| async {
            documents::revision(&db, &id, 1, documents::Caller::Quire)
                .await
                .unwrap()
        })
    });
    c.bench_function("history/read newest of 1000 revisions (10 KB)", |b| {
        b.to_async(&rt).iter(|| async {
            documents::revision(&db, &id, 1000, documents::Caller::Quire)
                .await
                .unwrap()
        })
    });
}

criterion_group!(benches, oldest_of_1000);
criterion_main!(benches);
