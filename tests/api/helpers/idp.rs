//! A real OpenID provider for the sign-in tests: `tests/oidc/provider.js`
//! (the `oidc-provider` package, installed by `scripts/test.sh`) on a free
//! loopback port, with its people in a JSON file the test may edit, and quire
//! beside it configured to sign people in there.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use reqwest::{Response, StatusCode, header};
use serde_json::{Value, json};

use super::{TestApp, try_spawn_with};

pub const CLIENT_ID: &str = "quire";
const CLIENT_SECRET: &str = "a-client-secret-for-tests";

/// The provider's people: login name → password, subject and groups.
fn people() -> Value {
    json!({
        "carol": {"sub": "s-carol", "password": "carol-pass", "email": "carol@example.org",
                  "email_verified": true, "name": "Carol", "groups": ["eng", "wiki-admins"]},
        "dave": {"sub": "s-dave", "password": "dave-pass", "email": "dave@example.org",
                 "email_verified": true, "name": "Dave", "groups": ["eng"]},
        // Named like quire's own admin, with an email nobody checked.
        "alice": {"sub": "s-mallory", "password": "mallory-pass", "email": "alice@example.org",
                  "email_verified": false, "name": "Not Alice", "groups": []},
        "bob": {"sub": "s-bob", "password": "bob-pass", "email": "bob@example.org",
                "email_verified": true, "name": "Bob", "groups": []}
    })
}

pub struct Idp {
    pub issuer: String,
    people: PathBuf,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for Idp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Idp {
    /// Starts the provider for a quire that will answer at `quire`.
    pub fn start(quire: &str) -> Self {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        assert!(
            root.join("node_modules/oidc-provider").is_dir(),
            "the test provider is not installed: run `npm ci --prefix tests/oidc` \
             (scripts/test.sh does)"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let people_file = dir.path().join("people.json");
        std::fs::write(&people_file, people().to_string()).expect("people file");
        let mut child = Command::new("node")
            .arg(root.join("provider.js"))
            .env("OIDC_PORT", "0")
            .env("OIDC_CLIENT_ID", CLIENT_ID)
            .env("OIDC_CLIENT_SECRET", CLIENT_SECRET)
            .env("OIDC_REDIRECT_URI", format!("{quire}/login/oidc/callback"))
            .env("OIDC_POST_LOGOUT_URI", format!("{quire}/login"))
            .env("OIDC_ACCOUNTS", &people_file)
            .env("OIDC_EXIT_ON_STDIN_CLOSE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the test provider");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the provider says where it listens");
        let issuer = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("the provider did not start: {line:?}"))
            .to_owned();
        Self {
            issuer,
            people: people_file,
            child,
            _dir: dir,
        }
    }

    /// Puts `login` in exactly `groups` at the provider.
    pub fn set_groups(&self, login: &str, groups: &[&str]) {
        let mut all: Value =
            serde_json::from_str(&std::fs::read_to_string(&self.people).unwrap()).unwrap();
        all[login]["groups"] = json!(groups);
        std::fs::write(&self.people, all.to_string()).unwrap();
    }

    /// Spoils the next ID token the provider sends (see provider.js).
    pub async fn tamper(&self, mode: &str) {
        let res = reqwest::Client::new()
            .post(format!("{}/test/tamper", self.issuer))
            .json(&json!({ "mode": mode }))
            .send()
            .await
            .expect("tamper");
        assert_eq!(res.status(), StatusCode::OK, "tamper {mode}");
    }
}

/// A free port on loopback for quire, known before it starts (the provider
/// must know quire's address first).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// quire signing people in at a real provider, changed by `adjust` too.
/// quire's port is chosen before it starts (the provider must know it), so
/// another test may take it meanwhile: then both start again on new ports.
pub async fn with_provider(adjust: impl Fn(&mut quire::config::Config)) -> (TestApp, Idp) {
    let mut last = None;
    for _ in 0..5 {
        let port = free_port();
        let idp = Idp::start(&format!("http://127.0.0.1:{port}"));
        let issuer = idp.issuer.clone();
        let started = try_spawn_with(|c| {
            c.bind = format!("127.0.0.1:{port}");
            c.sign_in.oidc_issuer = Some(issuer);
            c.sign_in.oidc_client_id = Some(CLIENT_ID.into());
            c.sign_in.oidc_client_secret = Some(CLIENT_SECRET.parse().unwrap());
            c.sign_in.oidc_name = "Test Provider".into();
            c.auth_admin_group = Some("wiki-admins".into());
            adjust(c);
        })
        .await;
        match started {
            Ok(app) => return (app, idp),
            Err(e) => last = Some(e),
        }
    }
    panic!("quire did not start beside the provider: {last:?}");
}

fn location_of(res: &Response, base: &str) -> String {
    let to = res
        .headers()
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .unwrap_or_else(|| panic!("no Location in a {}", res.status()))
        .to_owned();
    if to.starts_with('/') {
        format!("{base}{to}")
    } else {
        to
    }
}

fn origin(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split('/').next().unwrap_or_default();
    format!("http://{host}")
}

/// Follows `browser` from `url` through the provider (answering its sign-in
/// form as `login`) until the provider sends it back to quire's callback: that
/// URL, not yet opened.
pub async fn through_provider(browser: &reqwest::Client, url: &str, login: &str) -> String {
    let password = people()[login]["password"]
        .as_str()
        .unwrap_or("wrong")
        .to_owned();
    let mut url = url.to_owned();
    for _ in 0..10 {
        if url.contains("/login/oidc/callback") {
            return url;
        }
        let res = browser.get(&url).send().await.expect("GET");
        if res.status() == StatusCode::OK {
            let page = res.text().await.expect("page");
            assert!(
                page.contains("name=\"login\""),
                "not a sign-in form: {page}"
            );
            let action = format!("{}/login", url.trim_end_matches('/'));
            let res = browser
                .post(&action)
                .form(&[("login", login), ("password", &password)])
                .send()
                .await
                .expect("POST the provider's form");
            assert_eq!(
                res.status(),
                StatusCode::SEE_OTHER,
                "signed in at the provider"
            );
            url = location_of(&res, &origin(&url));
            continue;
        }
        assert!(res.status().is_redirection(), "{url}: {}", res.status());
        url = location_of(&res, &origin(&url));
    }
    panic!("the provider never sent the browser back");
}

/// Signs `browser` in at quire through the provider as `login`: quire's
/// answer to the callback (a 303 to `next` on success).
pub async fn sign_in_with_provider(
    app: &TestApp,
    browser: &reqwest::Client,
    login: &str,
) -> Response {
    let start = browser
        .get(format!("{}/login/oidc?next=/search", app.address))
        .send()
        .await
        .expect("start");
    assert_eq!(start.status(), StatusCode::SEE_OTHER);
    let callback = through_provider(browser, &location_of(&start, &app.address), login).await;
    browser.get(&callback).send().await.expect("callback")
}
