//! PostgreSQL for the command-line tests: the server in `QUIRE_TEST_POSTGRES`
//! (default `postgres://postgres@127.0.0.1:5432`) and a new database per test.

use sqlx::{Connection, Executor};

pub fn postgres_server() -> String {
    std::env::var("QUIRE_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432".into())
        .trim()
        .trim_end_matches('/')
        .to_owned()
}

/// True when this run was asked to use PostgreSQL wherever a test can.
pub fn on_postgres() -> bool {
    std::env::var("QUIRE_TEST_POSTGRES").is_ok_and(|s| !s.trim().is_empty())
}

/// An empty database named `quire_t_<random>` (the test scripts drop them).
pub async fn fresh_postgres_database() -> String {
    let server = postgres_server();
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    let name: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("quire_t_{name}");
    let mut conn = sqlx::postgres::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL at {server} is needed for these tests: {e}"));
    conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .unwrap();
    conn.close().await.ok();
    format!("{server}/{name}")
}

/// A database for a test that runs on either backend: a new PostgreSQL database
/// when the run is on PostgreSQL, else a SQLite file in `dir`.
pub fn database_url(dir: &std::path::Path) -> String {
    if on_postgres() {
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(fresh_postgres_database())
    } else {
        format!("sqlite://{}", dir.join("q.db").display())
    }
}
