use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use quire::config::Config;
use quire::db::Db;
use quire::ops::backup::{backup, restore_snapshot, verify};
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
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let (app, stop) = (app.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    app.create_document(&format!("during {w}-{n}"), "y").await;
                    n += 1;
                }
                n
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;

    let db = app.dir.path().join("quire.db");
    let out = app.dir.path().join("snap/quire-backup.db.zst");
    let taken = backup(&db, &out).await.expect("backup while writing");
    stop.store(true, Ordering::Relaxed);
    let mut during = 0;
    for w in writers {
        during += w.await.unwrap();
    }

    assert!(during > 0, "writers ran during the backup");
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
    // Pretend the last migration is new: forget it ran and undo what it made.
    sqlx::query(
        "DELETE FROM _sqlx_migrations WHERE version = (SELECT max(version) FROM _sqlx_migrations)",
    )
    .execute(&app.db.write)
    .await
    .unwrap();
    // The last migration is 0006_covering_indexes.
    for index in ["documents_listing", "documents_access"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP INDEX {index}")))
            .execute(&app.db.write)
            .await
            .unwrap();
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
