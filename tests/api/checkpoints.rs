//! A server copies what was saved from SQLite's WAL into the database file
//! beside the writer, within a moment, rather than in the commit of the save
//! that takes the WAL past 1,000 pages (`db::checkpoints`).

use std::path::Path;
use std::time::{Duration, Instant};

use reqwest::StatusCode;

use crate::helpers::{on_postgres, spawn_app};

/// The WAL's frames and how many of them are in the database file, from the
/// wal-index (`-shm`): its header's `mxFrame` at byte 16 and the checkpoint's
/// `nBackfill` at byte 96, in the machine's byte order.
fn wal_index(db: &Path) -> (u32, u32) {
    let shm = std::fs::read(db.with_extension("db-shm")).expect("the -shm file");
    let at = |i: usize| u32::from_ne_bytes(shm[i..i + 4].try_into().unwrap());
    (at(16), at(96))
}

#[tokio::test]
async fn saves_reach_the_database_file_without_waiting_for_a_thousand_pages() {
    if on_postgres() {
        return;
    }
    let app = spawn_app().await;
    let id = app.create_document("Plans", "v1").await;
    for version in 1..=5 {
        let body = format!("v{}", version + 1);
        let res = app.save(&id, "Plans", &body, version).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
    }
    let db = app.dir.path().join("quire.db");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (frames, copied) = wal_index(&db);
        assert!(
            frames < 1_000,
            "a few saves, not a thousand pages: {frames}"
        );
        if frames > 0 && copied == frames {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the WAL was never copied into the database file: {copied} of {frames} frames"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
