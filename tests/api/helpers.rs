//! `spawn_app()`: the real server on a random port over a fresh database: a SQLite
//! file, or, when `QUIRE_TEST_POSTGRES` names a PostgreSQL server (e.g.
//! `postgres://postgres@127.0.0.1:5432`), a new PostgreSQL database per test.

use quire::accounts::{self, AccountError};
use quire::config::Config;
use quire::db::Db;
use quire::startup::Application;
use reqwest::{Response, StatusCode, header};
use tempfile::TempDir;

#[path = "helpers/command.rs"]
mod command;
#[path = "helpers/idp.rs"]
pub mod idp;
#[path = "helpers/teams.rs"]
mod teams;
pub use teams::{ALICE, member_of, ops_space};
#[path = "helpers/person.rs"]
mod person;
pub use person::{Person, create_in, team_space, told};
#[path = "helpers/pages.rs"]
pub mod pages;
pub use pages::{someone_elses_private_document, textareas, unescape};
#[path = "helpers/postgres.rs"]
mod postgres;
#[path = "helpers/receiver.rs"]
pub mod receiver;
#[path = "helpers/smtp.rs"]
pub mod smtp;
pub use command::{quire, run_quire};
pub use postgres::{
    fresh_postgres_database, on_postgres, postgres_server, postgres_server_or_skip,
};

pub struct TestApp {
    pub address: String,
    /// Signed in as the admin `alice`, cookies kept.
    pub client: reqwest::Client,
    /// The CSRF token `client` must send with state-changing requests.
    pub csrf: String,
    pub config: Config,
    pub dir: TempDir,
    pub db: Db,
    server: quire::web::middleware::drain::Stopper,
    running: tokio::task::JoinHandle<anyhow::Result<()>>,
}

pub const PASSWORD: &str = "correct horse battery staple";

pub async fn spawn_app() -> TestApp {
    spawn_with(|_| {}).await
}

pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    try_spawn_with(adjust)
        .await
        .unwrap_or_else(|e| panic!("the app starts: {e:?}"))
}

/// `spawn_with`, or why quire did not start (a port taken meanwhile, say).
pub async fn try_spawn_with(adjust: impl FnOnce(&mut Config)) -> anyhow::Result<TestApp> {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = match postgres_server() {
        Some(server) => fresh_postgres_database(&server).await,
        None => format!("sqlite://{}", dir.path().join("quire.db").display()),
    };
    config.workers = 2;
    // Attached files are read by the quire binary, not by this test binary.
    config.attachment_text = env!("CARGO_BIN_EXE_quire").into();
    adjust(&mut config);
    try_start(config, dir).await
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
    try_start(config, dir)
        .await
        .unwrap_or_else(|e| panic!("the app starts: {e:?}"))
}

async fn try_start(config: Config, dir: TempDir) -> anyhow::Result<TestApp> {
    // The server's warnings and errors, shown with a failing test's output.
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("warn")
        .try_init();
    let app = Application::build(config.clone()).await?;
    let address = format!("http://127.0.0.1:{}", app.port());
    let db = app.db();
    let server = app.stopper();
    let running = tokio::spawn(app.run_until_stopped());
    match accounts::create_user(&db, "alice", PASSWORD, true).await {
        Ok(_) | Err(AccountError::Taken) => {}
        Err(e) => panic!("creating the test admin: {e}"),
    }
    let (client, csrf) = match config.sign_in.password_sign_in {
        true => sign_in(&address, "alice", PASSWORD).await,
        false => anonymous(&address).await,
    };
    Ok(TestApp {
        address,
        client,
        csrf,
        config,
        dir,
        db,
        server,
        running,
    })
}

/// The value `/metrics` reports for `series` (its name and labels, as printed).
pub async fn metric(app: &TestApp, series: &str) -> u64 {
    let text = reqwest::get(format!("{}/metrics", app.address))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("{series} is reported"))
        .parse()
        .unwrap()
}

pub fn new_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        // Well inside the server's 5 s keep-alive: a connection idle for about
        // that long may be closing as the next request goes out on it.
        .pool_idle_timeout(std::time::Duration::from_secs(2))
        .build()
        .expect("client")
}

/// The CSRF token a page carries in its forms.
pub fn csrf_of(html: &str) -> String {
    // A form's field, else the one htmx sends (a page without a form has it).
    [r#"name="csrf" value=""#, r#""X-CSRF-Token": ""#]
        .iter()
        .find_map(|start| html.split(start).nth(1))
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
    // Signing in starts a session with a CSRF token of its own.
    let home = client
        .get(format!("{address}/"))
        .send()
        .await
        .expect("GET /")
        .text()
        .await
        .expect("body");
    (client, csrf_of(&home))
}

/// `sign_in` with a cookie jar that can be read, to send a session's cookie
/// again after signing out, as someone who kept it would.
pub async fn signed_in_with_jar(
    address: &str,
    username: &str,
) -> (
    reqwest::Client,
    std::sync::Arc<reqwest::cookie::Jar>,
    String,
) {
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_provider(jar.clone())
        .build()
        .expect("client");
    let login = client.get(format!("{address}/login")).send().await;
    let csrf = csrf_of(&login.expect("GET /login").text().await.expect("body"));
    let res = client
        .post(format!("{address}/login"))
        .form(&[
            ("username", username),
            ("password", PASSWORD),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .expect("POST /login");
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "sign-in as {username}");
    let home = client.get(format!("{address}/")).send().await;
    let csrf = csrf_of(&home.expect("GET /").text().await.expect("body"));
    (client, jar, csrf)
}

/// The cookies `jar` holds for `address`, as a `Cookie` header.
pub fn cookies_of(jar: &reqwest::cookie::Jar, address: &str) -> header::HeaderValue {
    let url: reqwest::Url = address.parse().expect("address");
    reqwest::cookie::CookieStore::cookies(jar, &url).expect("cookies")
}

impl TestApp {
    /// Starts a graceful stop, as SIGTERM does, and returns once the server
    /// takes no new connections, without waiting for the stop to end.
    pub async fn begin_stop(&self) -> tokio::task::JoinHandle<()> {
        let server = self.server.clone();
        let stopping = tokio::spawn(async move { server.stop().await });
        while !self.server.draining() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        stopping
    }

    /// Stops the server gracefully, as SIGTERM does, and waits until it has
    /// closed its database; returns what `start` needs to serve it again.
    pub async fn stop(self) -> (Config, TempDir) {
        self.server.stop().await;
        self.running
            .await
            .expect("the server task")
            .expect("the server ran cleanly");
        assert!(self.db.is_closed(), "the database was closed");
        (self.config, self.dir)
    }

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

    /// Creates a document in alice's personal space (only she reads it) and
    /// returns its id.
    pub async fn create_document(&self, title: &str, body: &str) -> String {
        let res = self
            .post_form(
                "/docs",
                &[("title", title), ("body", body), ("space", "personal")],
            )
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

    /// Revision `rev` of document `id` exactly as stored: its title and text.
    pub async fn revision(&self, id: &str, rev: i64) -> (String, String) {
        let alice: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'alice'")
            .fetch_one(&self.db.read)
            .await
            .expect("the admin's id");
        let actor = quire::documents::Actor {
            user_id: alice,
            name: "alice",
        };
        let id = quire::documents::DocId::parse(id).expect("a document id");
        let (_, revision, text) = quire::documents::revision(&self.db, &id, rev, actor.into())
            .await
            .unwrap_or_else(|e| panic!("revision {rev}: {e}"));
        (revision.title, text)
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
