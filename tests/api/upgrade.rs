//! A database made by an earlier release (tests/fixtures/release-0007.db, made by
//! tests/fixtures/make-release-db.py: schema steps recorded the old way, by
//! number) upgrades at start and serves what it held.

use quire::config::Config;
use reqwest::StatusCode;

use crate::helpers::{on_postgres, start};

const GARDEN: &str = "elhauve7j7v3mrz4bnrbubbvtu";

#[tokio::test]
async fn a_database_from_the_earlier_release_upgrades_and_serves_its_documents_history_and_sign_in()
{
    if on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("quire.db");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/release-0007.db"
        ),
        &file,
    )
    .unwrap();
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = format!("sqlite://{}", file.display());
    config.workers = 2;
    // Signs in as alice with the password the fixture was made with.
    let app = start(config, dir).await;

    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains("Garden plan"), "{home}");
    assert!(home.contains("Reading list"));
    let page = app.get(&format!("/d/{GARDEN}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(page.contains("Beans on the fence."), "{page}");
    // That release stored the page as it was; its first view stored it compressed.
    let stored = || async {
        quire::db::query_as::<(String, Option<Vec<u8>>)>(
            "SELECT html, html_z FROM documents WHERE id = $1",
        )
        .bind(GARDEN)
        .fetch_one(&app.db.read)
        .await
        .unwrap()
    };
    let (plain, packed) = stored().await;
    assert_eq!(plain, "", "the uncompressed page is gone");
    assert!(packed.is_some_and(|p| !p.is_empty()));
    let again = app.get(&format!("/d/{GARDEN}")).await.text().await.unwrap();
    assert!(again.contains("Beans on the fence."), "{again}");
    let (_, first) = app.revision(GARDEN, 1).await;
    assert_eq!(first, "Tomatoes by the south wall.\n");
    let (_, second) = app.revision(GARDEN, 2).await;
    assert!(second.ends_with("Beans on the fence.\n"));
    let found = app.get("/search?q=tomatoes").await.text().await.unwrap();
    assert!(
        found.contains("Garden plan"),
        "search works on the old index"
    );

    // The steps it had run are recorded under their names; none ran twice.
    let recorded: Vec<String> =
        quire::db::query_scalar("SELECT version FROM seaql_migrations ORDER BY version")
            .fetch_all(&app.db.read)
            .await
            .unwrap();
    assert_eq!(recorded.len(), quire::db::schema_steps());
    assert_eq!(recorded[0], "0001_documents");
    assert!(app.db.is_ready().await);
    // And, as before any upgrade, the file was snapshotted first.
    let snapshots = std::fs::read_dir(app.dir.path().join("backups"))
        .expect("a snapshot before the upgrade")
        .count();
    assert_eq!(snapshots, 1);

    // Saving works on the upgraded schema, and history grows.
    let res = app
        .save(GARDEN, "Garden plan", "Tomatoes, beans, and squash.\n", 2)
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, third) = app.revision(GARDEN, 3).await;
    assert_eq!(third, "Tomatoes, beans, and squash.\n");
}
