//! `spawn_app()`: the real server on a random port over a fresh database: a SQLite
//! file, or, when `QUIRE_TEST_POSTGRES` names a PostgreSQL server (e.g.
//! `postgres://postgres@127.0.0.1:5432`), a new PostgreSQL database per test.

use quire::accounts::{self, AccountError};
use quire::config::Config;
use quire::db::Db;
use quire::startup::Application;
use reqwest::{Response, StatusCode, header};
use tempfile::TempDir;

pub struct TestApp {
    pub address: String,
    /// Signed in as the admin `alice`, cookies kept.
    pub client: reqwest::Client,
    /// The CSRF token `client` must send with state-changing requests.
    pub csrf: String,
    pub config: Config,
    pub dir: TempDir,
    pub db: Db,
}

pub const PASSWORD: &str = "correct horse battery staple";

pub async fn spawn_app() -> TestApp {
    spawn_with(|_| {}).await
}

pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = match postgres_server() {
        Some(server) => fresh_postgres_database(&server).await,
        None => format!("sqlite://{}", dir.path().join("quire.db").display()),
    };
    config.workers = 2;
    adjust(&mut config);
    start(config, dir).await
}

/// The PostgreSQL server the tests run on, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("QUIRE_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().trim_end_matches('/').to_owned())
}

/// True when this run is on PostgreSQL: tests of SQLite files (backups, raw
/// storage, import/export of files) have nothing to check there.
pub fn on_postgres() -> bool {
    postgres_server().is_some()
}

/// Creates an empty database named `quire_t_<random>` and returns its URL.
/// `scripts/test.sh` drops them all before and after a run.
pub async fn fresh_postgres_database(server: &str) -> String {
    use sqlx::{Connection, Executor};
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("random");
    let name: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("quire_t_{name}");
    let mut conn = sqlx::postgres::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .expect("connecting to the test PostgreSQL server");
    conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("creating a test database");
    conn.close().await.ok();
    format!("{server}/{name}")
}

/// A new API token made on the account page by a signed-in `client`.
pub async fn api_token(address: &str, client: &reqwest::Client, csrf: &str) -> String {
    let res = client
        .post(format!("{address}/account/tokens"))
        .form(&[("name", "script"), ("csrf", csrf)])
        .send()
        .await
        .unwrap();
    let html = res.text().await.unwrap();
    let start = html.find("qt_").expect("the token is shown once");
    html[start..start + 67].to_owned()
}

/// Starts a server over an existing folder (to test what survives a restart).
pub async fn start(config: Config, dir: TempDir) -> TestApp {
    let app = Application::build(config.clone())
        .await
        .expect("the app starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    let db = app.db();
    tokio::spawn(app.run_until_stopped());
    match accounts::create_user(&db, "alice", PASSWORD, true).await {
        Ok(_) | Err(AccountError::Taken) => {}
        Err(e) => panic!("creating the test admin: {e}"),
    }
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    TestApp {
        address,
        client,
        csrf,
        config,
        dir,
        db,
    }
}

pub fn new_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .build()
        .expect("client")
}

/// The CSRF token a page carries in its forms.
pub fn csrf_of(html: &str) -> String {
    html.split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page has a CSRF field")
        .to_owned()
}

/// A fresh browser: fetches the sign-in page (and its CSRF cookie).
pub async fn anonymous(address: &str) -> (reqwest::Client, String) {
    let client = new_client();
    let page = client
        .get(format!("{address}/login"))
        .send()
        .await
        .expect("GET /login")
        .text()
        .await
        .expect("body");
    (client, csrf_of(&page))
}

pub async fn sign_in(address: &str, username: &str, password: &str) -> (reqwest::Client, String) {
    let (client, csrf) = anonymous(address).await;
    let res = client
        .post(format!("{address}/login"))
        .form(&[
            ("username", username),
            ("password", password),
            ("csrf", &csrf),
            ("next", "/"),
        ])
        .send()
        .await
        .expect("POST /login");
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "sign-in as {username}");
    (client, csrf)
}

impl TestApp {
    pub async fn get(&self, path: &str) -> Response {
        self.client
            .get(format!("{}{}", self.address, path))
            .send()
            .await
            .expect("GET")
    }

    pub async fn get_htmx(&self, path: &str) -> Response {
        self.client
            .get(format!("{}{}", self.address, path))
            .header("HX-Request", "true")
            .header("HX-Target", "main")
            .send()
            .await
            .expect("GET")
    }

    /// A post as htmx sends it: CSRF in a header, aimed at `#main`.
    pub async fn post_htmx(&self, path: &str, fields: &[(&str, &str)]) -> Response {
        self.client
            .post(format!("{}{}", self.address, path))
            .header("HX-Request", "true")
            .header("HX-Target", "main")
            .header("X-CSRF-Token", &self.csrf)
            .form(fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn get_text(&self, path: &str) -> (StatusCode, String) {
        let res = self.get(path).await;
        let status = res.status();
        (status, res.text().await.expect("body"))
    }

    /// A form post with the CSRF field added, as the browser's form would send it.
    pub async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Response {
        let mut fields = fields.to_vec();
        fields.push(("csrf", &self.csrf));
        self.client
            .post(format!("{}{}", self.address, path))
            .form(&fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn post_raw(&self, path: &str, mut body: Vec<u8>) -> Response {
        body.extend_from_slice(format!("&csrf={}", self.csrf).as_bytes());
        self.client
            .post(format!("{}{}", self.address, path))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .expect("POST")
    }

    /// Creates a document and returns its id.
    pub async fn create_document(&self, title: &str, body: &str) -> String {
        let res = self
            .post_form("/docs", &[("title", title), ("body", body)])
            .await;
        assert_eq!(
            res.status(),
            StatusCode::SEE_OTHER,
            "create should redirect"
        );
        let location = location(&res);
        let id = location
            .strip_prefix("/d/")
            .and_then(|l| l.split('?').next())
            .expect("redirect to the new document");
        id.to_owned()
    }

    pub async fn save(&self, id: &str, title: &str, body: &str, version: i64) -> Response {
        let version = version.to_string();
        self.post_form(
            &format!("/d/{id}"),
            &[("title", title), ("body", body), ("version", &version)],
        )
        .await
    }
}

pub fn location(res: &Response) -> String {
    res.headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// The text a page shows inside `<textarea>`, where the user's words come back.
pub fn textareas(html: &str) -> Vec<String> {
    html.split("<textarea")
        .skip(1)
        .filter_map(|part| {
            let start = part.find('>')? + 1;
            let end = part.find("</textarea>")?;
            Some(unescape(part[start..end].trim_start_matches('\n')))
        })
        .collect()
}

pub fn unescape(s: &str) -> String {
    s.replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#38;", "&")
}
