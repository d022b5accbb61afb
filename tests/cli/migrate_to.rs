//! `quire migrate-to`: a SQLite database with accounts, history, a draft, a
//! session and an API token is copied to a fresh PostgreSQL database, which quire
//! then serves. Needs the PostgreSQL server in `QUIRE_TEST_POSTGRES` (default
//! `postgres://postgres@127.0.0.1:5432`); fails when it is unreachable.

use std::io::Write;
use std::process::{Output, Stdio};

use quire::accounts::{self, User};
use quire::config::Config;
use quire::db::Db;
use quire::documents::{self, Actor, DocId, OnStale, Valid};
use quire::startup::Application;
use reqwest::StatusCode;
use sqlx::Connection;

use super::quire;

const PASSWORD: &str = "a long enough password";

use super::pg::fresh_postgres_database;

async fn count(url: &str, table: &str) -> i64 {
    let mut conn = sqlx::postgres::PgConnection::connect(url).await.unwrap();
    let n = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {table}")))
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.ok();
    n
}

struct Source {
    _dir: tempfile::TempDir,
    url: String,
}

impl Source {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("q.db").display());
        Self { _dir: dir, url }
    }

    fn run(&self, args: &[&str], stdin: &str) -> Output {
        let mut child = quire()
            .args(args)
            .env("QUIRE_DATABASE_URL", &self.url)
            .env("QUIRE_LOG", "warn")
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        write!(child.stdin.take().unwrap(), "{stdin}").unwrap();
        child.wait_with_output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args, "");
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn config(&self) -> Config {
        let mut config = Config::from_env();
        config.database_url = self.url.clone();
        config
    }
}

/// What the seeded source holds beyond generated documents.
struct Seeded {
    doc_id: String,
    session: String,
    token: String,
}

/// Alice (an administrator, through the binary), 12 generated documents, and one
/// document of hers saved five times with a draft on top, a session and a token.
async fn seed(source: &Source) -> Seeded {
    let out = source.run(
        &["user", "add", "alice", "--admin", "--password-stdin"],
        &format!("{PASSWORD}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    source.ok(&["seed", "--count", "12", "--size", "600"]);

    let config = source.config();
    let db = Db::open(&config).await.unwrap();
    let alice: User =
        quire::db::query_as("SELECT id, username, is_admin FROM users WHERE username = $1")
            .bind("alice")
            .fetch_one(&db.read)
            .await
            .unwrap();
    let actor = Actor {
        user_id: alice.id,
        name: &alice.username,
    };
    let valid = |n: usize| Valid::parse("Field notes", &text(n), config.max_doc_bytes).unwrap();
    let doc = documents::create(&db, valid(1), actor.into())
        .await
        .unwrap();
    let id = DocId::parse(&doc.id).unwrap();
    for n in 2..=5 {
        let base = n as i64 - 1;
        documents::save(&db, &id, base, valid(n), OnStale::Refuse, actor.into())
            .await
            .unwrap();
    }
    documents::drafts::put(
        &db,
        &id,
        actor,
        "Field notes",
        "unsaved words",
        5,
        config.max_doc_bytes,
    )
    .await
    .unwrap();
    documents::attachments::attach(&db, &id, actor.into(), "photo.png", PHOTO.to_vec(), 1 << 20)
        .await
        .unwrap();
    let session = accounts::start_session(&db, &alice).await.unwrap();
    let token = accounts::tokens::create(&db, &alice, "script")
        .await
        .unwrap();
    db.close().await;
    Seeded {
        doc_id: doc.id,
        session,
        token,
    }
}

/// A file attached to the saved document (any bytes: a download).
const PHOTO: &[u8] = b"\x89PNG\r\n\x1a\n not really a picture \x00\xff";

/// The body of save `n`: every save keeps the lines before it.
fn text(n: usize) -> String {
    (1..=n)
        .map(|i| format!("entry {i} of the notebook\n"))
        .collect()
}

async fn serve(url: &str) -> String {
    let mut config = Config::from_env();
    config.database_url = url.to_owned();
    config.bind = "127.0.0.1:0".into();
    config.workers = 1;
    let app = Application::build(config).await.unwrap();
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    address
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .build()
        .unwrap()
}

#[tokio::test]
async fn migrate_to_copies_history_accounts_and_sessions_and_quire_serves_the_copy() {
    let source = Source::new();
    let seeded = seed(&source).await;
    let target = fresh_postgres_database().await;

    let out = source.ok(&["migrate-to", &target]);

    assert!(out.contains("verified"), "{out}");
    for table in [
        "documents",
        "revisions",
        "sessions",
        "api_tokens",
        "drafts",
        "attachments",
        "document_files",
    ] {
        let line = out.lines().find(|l| l.starts_with(table)).unwrap();
        assert!(line.ends_with("ok"), "{line}");
    }
    assert_eq!(count(&target, "documents").await, 13);
    assert_eq!(count(&target, "revisions").await, 12 + 5);
    // Indexed for search before the command ends, not left to the first server.
    assert_eq!(count(&target, "search_queue").await, 0);
    assert_eq!(count(&target, "document_search").await, 13);

    let address = serve(&target).await;
    let http = client();
    let doc = http
        .get(format!("{address}/api/v1/documents/{}", seeded.doc_id))
        .bearer_auth(&seeded.token)
        .send()
        .await
        .unwrap();
    assert_eq!(doc.status(), StatusCode::OK, "the API token still works");
    let doc: serde_json::Value = doc.json().await.unwrap();
    assert_eq!(doc["version"], 5);
    assert_eq!(doc["body"], text(5));

    let session = format!("quire_session={}", seeded.session);
    let old = http
        .get(format!("{address}/d/{}/r/1", seeded.doc_id))
        .header(reqwest::header::COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), StatusCode::OK, "the session still works");
    let old = old.text().await.unwrap();
    assert!(old.contains("entry 1 of the notebook"), "{old}");
    assert!(!old.contains("entry 2 of the notebook"), "{old}");
    let file = http
        .get(format!("{address}/d/{}/files/photo.png", seeded.doc_id))
        .header(reqwest::header::COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        file.status(),
        StatusCode::OK,
        "the attached file came along"
    );
    assert_eq!(file.bytes().await.unwrap().as_ref(), PHOTO);

    let created = http
        .post(format!("{address}/api/v1/documents"))
        .bearer_auth(&seeded.token)
        .json(&serde_json::json!({ "title": "Made after the move", "body": "new" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        created.status(),
        StatusCode::CREATED,
        "new rows get keys past the copied ones"
    );

    let signed_in = sign_in(&address, "alice", PASSWORD).await;
    assert_eq!(signed_in, StatusCode::SEE_OTHER, "the password still works");
}

/// Posts the sign-in form as a browser would; returns the answer's status.
async fn sign_in(address: &str, username: &str, password: &str) -> StatusCode {
    let http = client();
    let page = http
        .get(format!("{address}/login"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let csrf = page
        .split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    http.post(format!("{address}/login"))
        .form(&[
            ("username", username),
            ("password", password),
            ("csrf", &csrf),
            ("next", "/"),
        ])
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn migrate_to_refuses_a_target_that_holds_data_and_changes_nothing() {
    let source = Source::new();
    source.ok(&["seed", "--count", "3", "--size", "200"]);
    let target = fresh_postgres_database().await;
    source.ok(&["migrate-to", &target]);
    source.ok(&["seed", "--count", "2", "--size", "200", "--seed", "2"]);

    let again = source.run(&["migrate-to", &target], "");

    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains("not empty") && err.contains("documents"),
        "{err}"
    );
    assert_eq!(count(&target, "documents").await, 3);
}

#[tokio::test]
async fn migrate_to_refuses_a_source_that_is_not_sqlite() {
    let target = fresh_postgres_database().await;

    let out = quire()
        .args(["migrate-to", &target])
        .env("QUIRE_DATABASE_URL", &target)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();

    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("copies from a SQLite database"), "{err}");
}

#[tokio::test]
async fn migrate_to_refuses_a_target_that_is_not_postgres() {
    let source = Source::new();
    source.ok(&["seed", "--count", "1", "--size", "100"]);

    let out = source.run(&["migrate-to", "sqlite://elsewhere.db"], "");

    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("must be a postgres:// URL"), "{err}");
}

#[tokio::test]
async fn a_copy_that_reads_back_differently_is_rolled_back_and_exits_non_zero() {
    let source = Source::new();
    source.ok(&["seed", "--count", "5", "--size", "300"]);
    let target = fresh_postgres_database().await;
    // The target gets quire's schema, then a trigger that silently alters the
    // first document's title: the copy reads back different from the source.
    let mut config = source.config();
    config.database_url = target.clone();
    Db::open(&config).await.unwrap().close().await;
    let mut conn = sqlx::postgres::PgConnection::connect(&target)
        .await
        .unwrap();
    for sql in [
        "CREATE FUNCTION quire_test_alter_one() RETURNS trigger AS $$
         BEGIN
           IF NOT EXISTS (SELECT 1 FROM documents) THEN NEW.title := NEW.title || ' (altered)'; END IF;
           RETURN NEW;
         END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER quire_test_alter_one BEFORE INSERT ON documents
         FOR EACH ROW EXECUTE FUNCTION quire_test_alter_one()",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.ok();

    let out = source.run(&["migrate-to", &target], "");

    assert!(
        !out.status.success(),
        "a copy that differs is not a success"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("MISMATCH"), "{stdout}");
    assert!(
        stderr.contains("documents") && stderr.contains("rolled back"),
        "{stderr}"
    );
    for table in ["documents", "revisions", "users"] {
        assert_eq!(count(&target, table).await, 0, "{table} in the target");
    }
}
