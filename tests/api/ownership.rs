//! Nobody gets owner rights over a document for its having no owner.

use quire::documents::{self, Valid};
use reqwest::StatusCode;

use crate::helpers::{
    PASSWORD, TestApp, fresh_postgres_database, postgres_server, run_quire, sign_in, spawn_app,
};

/// Bob, an ordinary user, signed in; alice is the test admin.
async fn bob(app: &TestApp) -> (reqwest::Client, String) {
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .expect("bob");
    sign_in(&app.address, "bob", PASSWORD).await
}

async fn post(
    app: &TestApp,
    (client, csrf): &(reqwest::Client, String),
    path: &str,
    fields: &[(&str, &str)],
) -> StatusCode {
    let mut fields = fields.to_vec();
    fields.push(("csrf", csrf));
    client
        .post(format!("{}{path}", app.address))
        .form(&fields)
        .send()
        .await
        .expect("POST")
        .status()
}

async fn get(app: &TestApp, client: &reqwest::Client, path: &str) -> StatusCode {
    client
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .expect("GET")
        .status()
}

/// A document with no owner, as the command line made them before an admin existed.
async fn ownerless(app: &TestApp, title: &str) -> String {
    let doc = Valid::parse(title, "common text", 1024).expect("valid");
    documents::create(&app.db, doc, documents::Caller::Quire)
        .await
        .expect("created")
        .id
}

#[tokio::test]
async fn a_document_without_an_owner_cannot_be_shared_published_or_deleted_by_a_user() {
    let app = spawn_app().await;
    let bob = bob(&app).await;
    let id = ownerless(&app, "Team notes").await;

    assert_eq!(get(&app, &bob.0, &format!("/d/{id}")).await, StatusCode::OK);
    assert_eq!(
        get(&app, &bob.0, &format!("/d/{id}/share")).await,
        StatusCode::FORBIDDEN
    );
    for action in ["link-on", "visibility"] {
        let status = post(
            &app,
            &bob,
            &format!("/d/{id}/share"),
            &[("action", action), ("visibility", "read")],
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{action}");
    }
    let status = post(&app, &bob, &format!("/d/{id}/delete"), &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let doc = documents::get(
        &app.db,
        &documents::DocId::parse(&id).expect("id"),
        documents::Caller::Quire,
    )
    .await
    .expect("still there");
    assert!(doc.public_token.is_none());
    assert!(doc.deleted_at.is_none());
}

#[tokio::test]
async fn emptying_the_trash_deletes_only_what_the_user_owns() {
    let app = spawn_app().await;
    let bob = bob(&app).await;
    let id = ownerless(&app, "Kept by nobody").await;
    let doc_id = documents::DocId::parse(&id).expect("id");
    documents::trash(&app.db, &doc_id, documents::Caller::Quire)
        .await
        .expect("trashed");
    let alices = app.create_document("Alice's draft", "mine").await;
    app.post_form(&format!("/d/{alices}/delete"), &[]).await;

    let status = post(&app, &bob, "/trash/empty", &[("confirm", "yes")]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let left = documents::get(&app.db, &doc_id, documents::Caller::Quire).await;
    assert!(left.is_ok(), "the ownerless document is still in the trash");
    let (_, trash) = app.get_text("/trash").await;
    assert!(trash.contains("Alice&#39;s draft") || trash.contains("Alice's draft"));
}

#[tokio::test]
async fn an_import_without_an_owner_belongs_to_the_first_admin_and_says_so() {
    let app = spawn_app().await;
    let bob = bob(&app).await;
    let src = tempfile::tempdir().expect("temp dir");
    std::fs::write(src.path().join("plan.md"), "# Imported plan\n\nsteps\n").expect("write");
    let out = run_quire(
        &app.config.database_url,
        &["import", src.path().to_str().expect("utf-8")],
    )
    .await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("belong to the first admin, alice"), "{text}");

    let (_, list) = app.get_text("/").await;
    let id = list
        .split("href=\"/d/")
        .nth(1)
        .map(|rest| rest[..26].to_owned())
        .expect("alice sees the imported document");
    assert_eq!(
        get(&app, &app.client, &format!("/d/{id}/share")).await,
        StatusCode::OK
    );
    assert_eq!(
        get(&app, &bob.0, &format!("/d/{id}")).await,
        StatusCode::NOT_FOUND,
        "private to alice"
    );
}

#[tokio::test]
async fn upgrading_gives_ownerless_documents_to_the_first_admin_still_open_to_edit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (url, engine) = match postgres_server() {
        Some(server) => (fresh_postgres_database(&server).await, "postgres"),
        None => (
            format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display()),
            "sqlite",
        ),
    };
    // The schema as it was before owners were given out: migrations 0001-0006.
    let old = dir.path().join("old-migrations");
    std::fs::create_dir(&old).expect("folder");
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(engine);
    for entry in std::fs::read_dir(&all).expect("migrations") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if name.as_str() < "0007" {
            std::fs::copy(&path, old.join(&name)).expect("copy");
        }
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.expect("connect");
    sqlx::migrate::Migrator::new(old.as_path())
        .await
        .expect("old migrations")
        .run(&pool)
        .await
        .expect("old schema");
    for (name, admin) in [("carol", 0i64), ("alice", 1), ("dave", 1)] {
        sqlx::query("INSERT INTO users (username, password_hash, is_admin, created_at) VALUES ($1, 'x', $2, 0)")
            .bind(name)
            .bind(admin)
            .execute(&pool)
            .await
            .expect("user");
    }
    sqlx::query(
        "INSERT INTO documents (id, title, version, created_at, updated_at, render_version, size, body, html)
         VALUES ('0000000000000000000000000a', 'Legacy', 1, 0, 0, 1, 1, 'x', '<p>x</p>')",
    )
    .execute(&pool)
    .await
    .expect("ownerless document");
    pool.close().await;

    let mut config = quire::config::Config::from_env();
    config.database_url = url.replace("?mode=rwc", "");
    let db = quire::db::Db::open(&config).await.expect("upgrades");
    let (owner, visibility): (String, String) = quire::db::query_as(
        "SELECT u.username, d.visibility FROM documents d JOIN users u ON u.id = d.owner_id",
    )
    .fetch_one(&db.read)
    .await
    .expect("the document has an owner");
    assert_eq!(owner, "alice");
    assert_eq!(visibility, "edit");
    db.close().await;
}
