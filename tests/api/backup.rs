use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use quire::config::Config;
use quire::db::Db;
use quire::db::snapshot::{backup, restore_snapshot, verify};
use reqwest::StatusCode;

use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_snapshot_taken_under_write_load_is_consistent_and_restores() {
    // SQLite files only: on PostgreSQL, backups are the server's own (pg_dump, replicas).
    if crate::helpers::on_postgres() {
        return;
    }
    let app = spawn_app().await;
    let app = Arc::new(app);
    for n in 0..20 {
        app.create_document(&format!("before {n}"), "x").await;
    }
    // 0 before the backup, 1 while it runs, 2 after: a write that began before
    // the backup ended and ended after it began overlapped it.
    let phase = Arc::new(AtomicU8::new(0));
    let writing = Arc::new(tokio::sync::Barrier::new(5));
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let (app, phase, writing) = (app.clone(), phase.clone(), writing.clone());
            tokio::spawn(async move {
                let mut overlapped = 0;
                for n in 0.. {
                    let began = phase.load(Ordering::SeqCst);
                    if began == 2 {
                        break;
                    }
                    app.create_document(&format!("during {w}-{n}"), "y").await;
                    if phase.load(Ordering::SeqCst) >= 1 && began <= 1 {
                        overlapped += 1;
                    }
                    if n == 0 {
                        writing.wait().await;
                    }
                }
                overlapped
            })
        })
        .collect();
    writing.wait().await;

    let db = app.dir.path().join("quire.db");
    let out = app.dir.path().join("snap/quire-backup.db.zst");
    phase.store(1, Ordering::SeqCst);
    let taken = backup(&db, &out).await.expect("backup while writing");
    phase.store(2, Ordering::SeqCst);
    let mut during = 0;
    for w in writers {
        during += w.await.unwrap();
    }

    assert!(during > 0, "writes were in flight during the backup");
    assert!(taken.documents >= 20);
    let target = app.dir.path().join("restored/quire.db");
    let restored = restore_snapshot(&out, &target, false).await.unwrap();
    assert_eq!(restored.documents, taken.documents);
    assert_eq!(verify(&target).await.unwrap().revisions, taken.revisions);

    let refused = restore_snapshot(&out, &target, false).await;
    assert!(refused.unwrap_err().to_string().contains("--force"));
    restore_snapshot(&out, &target, true).await.unwrap();
    assert!(
        app.dir
            .path()
            .join("restored/quire.db.before-restore")
            .exists()
    );
}

#[tokio::test]
async fn an_upgrade_snapshots_the_database_before_migrating() {
    // SQLite files only: on PostgreSQL, backups are the server's own (pg_dump, replicas).
    if crate::helpers::on_postgres() {
        return;
    }
    let app = spawn_app().await;
    let id = app.create_document("Survives upgrades", "x").await;
    // Pretend the last migration is new: forget it ran and undo what it made,
    // whichever migration that is.
    let (version, made) = last_sqlite_migration();
    let forgotten = quire::db::query("DELETE FROM seaql_migrations WHERE version = $1")
        .bind(&version)
        .execute(&app.db.write)
        .await
        .unwrap();
    assert_eq!(forgotten.rows_affected(), 1, "migration {version} had run");
    for undo in made {
        quire::db::query(undo).execute(&app.db.write).await.unwrap();
    }

    let mut config: Config = app.config.clone();
    config.bind = "127.0.0.1:0".into();
    let db = Db::open(&config).await.expect("migrates again");

    let backups: Vec<_> = std::fs::read_dir(app.dir.path().join("backups"))
        .expect("a backups folder")
        .filter_map(|e| e.ok())
        .collect();
    assert_eq!(backups.len(), 1);
    let snap = verify(&backups[0].path()).await.unwrap();
    assert_eq!(snap.documents, 1);
    assert!(db.is_ready().await);
    assert_eq!(app.get(&format!("/d/{id}")).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn only_the_last_five_pre_upgrade_snapshots_are_kept() {
    if crate::helpers::on_postgres() {
        return;
    }
    let app = spawn_app().await;
    let (version, made) = last_sqlite_migration();
    let backups = app.dir.path().join("backups");
    let listed = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&backups)
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let mut every = std::collections::BTreeSet::new();
    for _ in 0..7 {
        quire::db::query("DELETE FROM seaql_migrations WHERE version = $1")
            .bind(&version)
            .execute(&app.db.write)
            .await
            .unwrap();
        for undo in &made {
            quire::db::query(undo.clone())
                .execute(&app.db.write)
                .await
                .unwrap();
        }
        Db::open(&app.config)
            .await
            .expect("migrates again")
            .close()
            .await;
        every.extend(listed());
    }

    assert_eq!(every.len(), 7, "one snapshot per upgrade: {every:?}");
    let newest: Vec<String> = every.iter().skip(2).cloned().collect();
    assert_eq!(listed(), newest, "the five newest are kept");
}

/// The newest file in `migrations/sqlite` that changes anything: its version and the statements that
/// undo what it made (the tables, indexes and triggers it creates, the columns
/// it adds); none for a migration that only changes rows, which may simply run
/// again.
fn last_sqlite_migration() -> (String, Vec<String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    // The last one that changes anything here (a step for PostgreSQL only has
    // a `SELECT 1` twin on SQLite).
    let does_something = |path: &std::path::PathBuf| {
        let sql = std::fs::read_to_string(path).unwrap();
        sql.lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .any(|l| !l.trim().is_empty() && l.trim() != "SELECT 1;")
    };
    let last = files
        .iter()
        .rev()
        .find(|p| does_something(p))
        .expect("a migration");
    let name = last.file_name().unwrap().to_str().unwrap();
    let version = name.trim_end_matches(".sql").to_owned();
    let sql = std::fs::read_to_string(last).unwrap();
    let mut made = Vec::new();
    for statement in sql.split(';') {
        let code: Vec<&str> = statement
            .lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .flat_map(str::split_whitespace)
            .collect();
        let words: Vec<String> = code.iter().map(|w| w.to_uppercase()).collect();
        if let Some(at) = words.iter().position(|w| w == "ALTER")
            && let ["ALTER", "TABLE", _, "ADD", "COLUMN", _, ..] = words[at..]
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice()
        {
            let (table, column) = (code[at + 2], code[at + 5]);
            made.push(format!("ALTER TABLE {table} DROP COLUMN {column}"));
            continue;
        }
        // An FTS5 setting (`INSERT INTO t (t, rank) VALUES ('key', v)`) is a
        // row of the index's `_config` table; absent, it has its default.
        if let ["INSERT", "INTO", _, ..] = words.iter().map(String::as_str).collect::<Vec<_>>()[..]
            && let Some(key) = statement.split('\'').nth(1)
            && words.iter().any(|w| w.contains("RANK)"))
        {
            made.push(format!("DELETE FROM {}_config WHERE k = '{key}'", code[2]));
            continue;
        }
        let Some(at) = words.iter().position(|w| w == "CREATE") else {
            continue;
        };
        let mut rest = words[at + 1..].iter().enumerate();
        let Some((_, kind)) =
            rest.find(|(_, w)| ["INDEX", "TABLE", "TRIGGER"].contains(&w.as_str()))
        else {
            continue;
        };
        let name = code[at + 1..]
            .iter()
            .skip_while(|w| !w.eq_ignore_ascii_case(kind))
            .skip(1)
            .find(|w| !["IF", "NOT", "EXISTS"].contains(&w.to_uppercase().as_str()))
            .expect("a name");
        made.push(format!("DROP {kind} {name}"));
    }
    // Undone last first: what refers to a new column goes before the column.
    made.reverse();
    // A migration that only changes rows (creates nothing) runs again as it is.
    (version, made)
}

/// The schema, every document's row and the search indexes' settings, to
/// compare before and after.
async fn sqlite_state(db: &Db) -> (String, String) {
    let schema: String = quire::db::query_scalar(
        "SELECT coalesce(group_concat(sql, ';'), '') FROM
         (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'quire_test_%'
          ORDER BY type, name)",
    )
    .fetch_one(&db.read)
    .await
    .unwrap();
    let rows: String = quire::db::query_scalar(
        "SELECT coalesce(group_concat(row, ';'), '') FROM
         (SELECT id || '|' || coalesce(owner_id, '-') || '|' || visibility || '|' || version
                 || '|' || title AS row FROM documents
          UNION ALL SELECT 'words ' || k || '=' || v FROM documents_words_config
          UNION ALL SELECT 'trigrams ' || k || '=' || v FROM documents_trigrams_config
          ORDER BY 1)",
    )
    .fetch_one(&db.read)
    .await
    .unwrap();
    (schema, rows)
}

#[tokio::test]
async fn a_migration_that_fails_leaves_the_database_as_it_was_and_the_next_start_completes_it() {
    if crate::helpers::on_postgres() {
        return;
    }
    let app = spawn_app().await;
    let id = app.create_document("Before the upgrade", "x").await;
    // Something for a migration that changes rows to change.
    quire::db::query("UPDATE documents SET owner_id = NULL")
        .execute(&app.db.write)
        .await
        .unwrap();
    let (version, made) = last_sqlite_migration();
    quire::db::query("DELETE FROM seaql_migrations WHERE version = $1")
        .bind(&version)
        .execute(&app.db.write)
        .await
        .unwrap();
    for undo in made {
        quire::db::query(undo).execute(&app.db.write).await.unwrap();
    }
    // Whatever the migration does, noting it as done then fails: all of it
    // must go back with that.
    quire::db::query(
        "CREATE TRIGGER quire_test_refuse BEFORE INSERT ON seaql_migrations
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
    )
    .execute(&app.db.write)
    .await
    .unwrap();
    let before = sqlite_state(&app.db).await;

    let config: Config = app.config.clone();
    let err = match Db::open(&config).await {
        Ok(_) => panic!("the migration was expected to fail"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("refused by the test"), "{err}");
    assert_eq!(
        sqlite_state(&app.db).await,
        before,
        "the failed migration changed the database"
    );

    quire::db::query("DROP TRIGGER quire_test_refuse")
        .execute(&app.db.write)
        .await
        .unwrap();
    let db = Db::open(&config)
        .await
        .expect("migrates once the fault is gone");
    let done: i64 =
        quire::db::query_scalar("SELECT count(*) FROM seaql_migrations WHERE version = $1")
            .bind(&version)
            .fetch_one(&db.read)
            .await
            .unwrap();
    assert_eq!(done, 1);
    assert_ne!(
        sqlite_state(&db).await,
        before,
        "run in full, the migration changes what this test watches"
    );
    assert_eq!(app.get(&format!("/d/{id}")).await.status(), StatusCode::OK);
}
