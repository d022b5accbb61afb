//! `spawn_app()`: the real server on a random port over a fresh database file.

use quire::config::Config;
use quire::startup::Application;
use reqwest::{Response, StatusCode, header};
use tempfile::TempDir;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub config: Config,
    pub dir: TempDir,
}

pub async fn spawn_app() -> TestApp {
    spawn_with(|_| {}).await
}

pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = format!("sqlite://{}", dir.path().join("quire.db").display());
    config.workers = 2;
    adjust(&mut config);
    start(config, dir).await
}

/// Starts a server over an existing folder (to test what survives a restart).
pub async fn start(config: Config, dir: TempDir) -> TestApp {
    let app = Application::build(config.clone())
        .await
        .expect("the app starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    TestApp {
        address,
        client,
        config,
        dir,
    }
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

    pub async fn get_text(&self, path: &str) -> (StatusCode, String) {
        let res = self.get(path).await;
        let status = res.status();
        (status, res.text().await.expect("body"))
    }

    pub async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Response {
        self.client
            .post(format!("{}{}", self.address, path))
            .form(fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn post_raw(&self, path: &str, body: Vec<u8>) -> Response {
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
