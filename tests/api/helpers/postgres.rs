//! The PostgreSQL server a test run may use, and a fresh database on it per test.

/// The PostgreSQL server the tests run on, if any. The test command's PostgreSQL
/// pass also sets `QUIRE_REQUIRE_POSTGRES=1`: then a missing server fails the
/// test rather than letting it skip or run on SQLite.
pub fn postgres_server() -> Option<String> {
    let server = std::env::var("QUIRE_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().trim_end_matches('/').to_owned());
    let required = std::env::var("QUIRE_REQUIRE_POSTGRES").is_ok_and(|v| !v.trim().is_empty());
    assert!(
        server.is_some() || !required,
        "QUIRE_REQUIRE_POSTGRES is set but QUIRE_TEST_POSTGRES names no server"
    );
    server
}

/// The PostgreSQL server for a test that needs one, or `None` after a line on
/// the real stderr (not the captured test output), so a skip is never silent.
pub fn postgres_server_or_skip(test: &str) -> Option<String> {
    let server = postgres_server();
    if server.is_none() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: needs PostgreSQL; set QUIRE_TEST_POSTGRES (and QUIRE_REQUIRE_POSTGRES=1 to fail instead)"
        );
    }
    server
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
