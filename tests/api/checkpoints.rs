//! What is saved reaches the database file, not only its write-ahead log: the
//! writer checkpoints as the WAL passes SQLite's 1,000 pages, so the WAL stays
//! small however long the saves go on (docs/PERFORMANCE.md, "Checkpoints
//! after the answer", for when they run). SQLite only.

use crate::helpers::{on_postgres, spawn_app};

const MIB: u64 = 1 << 20;

fn size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[tokio::test]
async fn under_many_saves_the_wal_stays_small_and_the_database_file_takes_what_was_saved() {
    if on_postgres() {
        eprintln!("checkpoints: SQLite's write-ahead log; nothing to check on PostgreSQL");
        return;
    }
    let app = spawn_app().await;
    let file = app.dir.path().join("quire.db");
    let wal = app.dir.path().join("quire.db-wal");
    let mut largest_wal = 0;
    for n in 0..60 {
        let (_, body) = quire::seed::document(&mut quire::seed::Rng::new(n), 160_000);
        let id = app.create_document(&format!("Notes {n}"), &body).await;
        assert!(!id.is_empty());
        largest_wal = largest_wal.max(size(&wal));
    }
    // 60 documents of 160 KB are about 10 MB of text alone, and more of
    // pages: the WAL holds at most ~4 MB of them and one document's more.
    assert!(
        largest_wal <= 7 * MIB,
        "the WAL grew to {} MiB",
        largest_wal / MIB
    );
    assert!(
        size(&file) >= 8 * MIB,
        "the database file holds {} MiB of what was saved",
        size(&file) / MIB
    );
    let (_, shown) = app.get_text("/").await;
    assert!(shown.contains("Notes 59"), "{shown}");
}
