//! The search indexes are kept by a background indexer from a queue in the
//! database, on both engines: what is queued survives the process, a user's own
//! save is found at once, and while much is queued the search page says the
//! index is catching up.

use std::time::{Duration, Instant};

use quire::config::Config;
use quire::db::Db;
use quire::documents::{self, Valid};

use crate::helpers::{
    TestApp, fresh_postgres_database, on_postgres, postgres_server, spawn_app, start,
};

async fn search_page(app: &TestApp, q: &str) -> String {
    app.client
        .get(format!("{}/search", app.address))
        .query(&[("q", q)])
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test]
async fn documents_written_while_no_server_ran_are_found_once_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = match postgres_server() {
        Some(server) => fresh_postgres_database(&server).await,
        None => format!("sqlite://{}", dir.path().join("quire.db").display()),
    };
    config.workers = 2;
    {
        // A command (an import, a seed) stores documents and stops before
        // indexing them: the queue is in the file it wrote.
        let db = Db::open(&config).await.unwrap();
        let doc = Valid::parse("Kept in the queue", "a marmalade recipe", 1 << 20).unwrap();
        documents::create(&db, doc, documents::Caller::Quire)
            .await
            .unwrap();
        let queued = quire::db::search::queue::queued(&db).await.unwrap();
        assert_eq!(queued, 1, "the new document waits in the queue");
        db.close().await;
    }
    let app = start(config, dir).await;
    let page = search_page(&app, "marmalade").await;
    assert!(page.contains("Kept in the queue"), "{page}");
    let parts = search_page(&app, "malad").await;
    assert!(
        parts.contains("Kept in the queue"),
        "parts of words too: {parts}"
    );
}

#[tokio::test]
async fn a_saved_word_is_found_by_the_next_search_and_the_old_one_is_gone() {
    let app = spawn_app().await;
    let id = app.create_document("Pantry", "quince jelly").await;
    for (version, word) in [(1, "medlar"), (2, "rowanberry"), (3, "damson")] {
        app.save(&id, "Pantry", &format!("{word} jelly"), version)
            .await;
        let page = search_page(&app, word).await;
        assert!(page.contains("Pantry"), "{word} is found at once: {page}");
        assert!(!page.contains("index-catching-up"), "{page}");
    }
    assert!(search_page(&app, "quince").await.contains("Nothing found"));
    assert!(search_page(&app, "owanber").await.contains("Nothing found"));
    assert!(search_page(&app, "amso").await.contains("Pantry"));
}

#[tokio::test]
async fn while_much_is_queued_the_search_page_says_the_index_is_catching_up() {
    let app = spawn_app().await;
    app.create_document("Orchard", "greengage").await;
    assert!(search_page(&app, "greengage").await.contains("Orchard"));
    // As after an upgrade: every document queued again (and ids of documents
    // long gone, which the indexer just drops). The writer is then held, so
    // the indexer cannot get through them while the page is asked.
    quire::db::query(if on_postgres() {
        "INSERT INTO search_queue (seq) SELECT generate_series(1000, 3000)"
    } else {
        "WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
         INSERT OR IGNORE INTO search_queue (seq) SELECT i FROM n"
    })
    .execute(&app.db.write)
    .await
    .unwrap();
    let held = app.db.begin_write().await.unwrap();
    let page = search_page(&app, "greengage").await;
    assert!(page.contains("index-catching-up"), "{page}");
    assert!(page.contains("Orchard"), "what is indexed is still found");
    held.rollback().await.unwrap();

    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let queued = quire::db::search::queue::queued(&app.db).await.unwrap();
        if queued == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{queued} still queued");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let page = search_page(&app, "greengage").await;
    assert!(!page.contains("index-catching-up") && page.contains("Orchard"));
}

#[tokio::test]
async fn on_postgresql_a_save_on_another_instance_is_found_by_the_next_search_here() {
    if !on_postgres() {
        return; // One SQLite file has one server.
    }
    let app = spawn_app().await;
    app.create_document("Orchard", "greengage").await;
    assert!(search_page(&app, "greengage").await.contains("Orchard"));
    // Idle for a while: this instance's indexer has indexed all it knows of,
    // and has seen an empty queue since.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Another instance on the same database: its saves are queued there, and
    // this instance's search must wait for them too, not only for its own.
    let other = Db::open(&app.config).await.unwrap();
    for word in ["loquat", "sapodilla", "cherimoya"] {
        let doc =
            Valid::parse(&format!("Grown {word}"), &format!("a {word} tree"), 1 << 20).unwrap();
        documents::create(&other, doc, documents::Caller::Quire)
            .await
            .unwrap();
        let title = format!("Grown {word}");
        let found = |page: String| {
            page.replace("<mark>", "")
                .replace("</mark>", "")
                .contains(&title)
        };
        assert!(
            found(search_page(&app, word).await),
            "{word} is found at once"
        );
        let part = &word[1..word.len() - 1];
        assert!(
            found(search_page(&app, part).await),
            "{part} is found at once"
        );
    }
    other.close().await;
}

/// Counts an FTS5 index's segments (one or more rows each in its `_idx` table).
async fn segments(db: &Db, index: &str) -> i64 {
    quire::db::query_scalar(format!("SELECT count(DISTINCT segid) FROM {index}_idx"))
        .fetch_one(&db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_indexer_merges_the_segments_that_indexing_left_and_everything_is_still_found() {
    if on_postgres() {
        return;
    }
    use quire::db::search::queue::{self, BATCH, Batch};
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::from_env();
    config.database_url = format!("sqlite://{}", dir.path().join("quire.db").display());
    let db = Db::open(&config).await.unwrap();
    let words: Vec<String> = (0..15).map(|i| format!("cultivar{i}x")).collect();
    for word in &words {
        // Enough text that a segment spans pages (FTS5 merges by pages written).
        let text: String = (0..1500).map(|n| format!(" {word}w{n}")).collect();
        let doc = Valid::parse(word, &format!("{word} grows here{text}"), 1 << 20).unwrap();
        documents::create(&db, doc, documents::Caller::Quire)
            .await
            .unwrap();
        // One document a transaction: a segment each. FTS5 would merge a level
        // all at once inside the insert that brings it to 16 segments, holding
        // the writer while saves wait; the indexer merges before that.
        assert_eq!(queue::index_batch(&db, Batch(1, 1)).await.unwrap(), 1);
    }
    let before = segments(&db, "documents_trigrams").await;
    assert_eq!(before, 15, "a segment for each indexing transaction");
    queue::merge(&db, BATCH).await.unwrap();
    for index in ["documents_words", "documents_trigrams"] {
        let after = segments(&db, index).await;
        assert!(after <= 6, "{index}: {before} segments merged into {after}");
    }
    for word in [&words[0], &words[7], &words[14]] {
        let found = documents::search(&db, word, 10, documents::Caller::Quire).await;
        let titles: Vec<&str> = found.hits.iter().map(|h| h.title.as_str()).collect();
        assert_eq!(titles, [word.as_str()], "found whole");
        let part = "ultiva";
        let found = documents::search(&db, part, 50, documents::Caller::Quire).await;
        assert_eq!(found.hits.len(), 15, "{part} is in every title");
    }
    db.close().await;
}
