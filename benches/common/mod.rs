//! Shared set-up for benches: a database in a temporary folder, opened the way
//! `quire serve` opens it.

#![allow(dead_code)]

use quire::config::Config;
use quire::db::Db;

pub async fn open_db(dir: &std::path::Path) -> (Db, Config) {
    let mut config = Config::from_env();
    config.database_url = format!("sqlite://{}", dir.join("quire.db").display());
    let db = Db::open(&config).await.expect("open the bench database");
    (db, config)
}

/// Milliseconds with three decimals, for tables.
pub fn ms(nanos: u64) -> String {
    format!("{:.3}", nanos as f64 / 1e6)
}

pub mod budget;
pub mod engineering;
pub mod filestore;
pub mod process;
pub mod server;

/// Signs `client` in (its cookie jar keeps the session); returns the CSRF token.
pub async fn sign_in(
    client: &reqwest::Client,
    address: &str,
    user: &str,
    password: &str,
) -> String {
    let page = client
        .get(format!("{address}/login"))
        .send()
        .await
        .expect("GET /login")
        .text()
        .await
        .expect("login page");
    let csrf = csrf_of(&page);
    let res = client
        .post(format!("{address}/login"))
        .form(&[
            ("username", user),
            ("password", password),
            ("csrf", &csrf),
            ("next", "/"),
        ])
        .send()
        .await
        .expect("POST /login");
    assert_eq!(
        res.status(),
        reqwest::StatusCode::SEE_OTHER,
        "bench sign-in"
    );
    // Signed in, the token belongs to the session: read the new one.
    let page = client
        .get(format!("{address}/new"))
        .send()
        .await
        .expect("GET /new")
        .text()
        .await
        .expect("editor page");
    csrf_of(&page)
}

fn csrf_of(page: &str) -> String {
    page.split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page has a CSRF field")
        .to_owned()
}
