//! SQLite plans a statement once per connection, not once per run.
//!
//! SQLite may plan a statement for the values bound to it: a `LIMIT $1` for
//! the number it was given, a `LIKE $2` for its pattern's prefix, an indexed
//! column against its value's sampled frequency. It then marks the statement
//! to be parsed and planned again as soon as those parameters are bound anew,
//! which sqlx does at every run (it clears the bindings first). The list's
//! statement was parsed and planned again on every list page (a probe on
//! `sqlite3Reprepare` fired once per request), and the longer a statement, the
//! dearer that is: the access rule made the list's statement about twice as
//! long.
//!
//! The query planner stability guarantee turns that off: a statement is
//! planned from its text and the schema alone, and the prepared statement
//! sqlx keeps is run as it is. None of quire's statements is planned better
//! for its values: its `LIKE` patterns match expressions (`lower(title)`),
//! which no index holds, and its limits are page sizes.

use std::ffi::c_int;

use libsqlite3_sys::{SQLITE_DBCONFIG_ENABLE_QPSG, SQLITE_OK, sqlite3_db_config};
use sqlx::sqlite::SqliteConnection;

/// Turns on the query planner stability guarantee for `conn`.
pub(super) async fn keep_plans(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    let mut now: c_int = 0;
    // SAFETY: `db` is the connection's open handle, held locked away from its
    // worker thread for the length of this call; this configuration verb takes
    // an int and a pointer to an int, which SQLite writes the new setting to.
    let rc = unsafe {
        sqlite3_db_config(
            db,
            SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as c_int,
            &mut now as *mut c_int,
        )
    };
    if rc != SQLITE_OK || now != 1 {
        return Err(sqlx::Error::Configuration(
            format!("SQLite refused the query planner stability guarantee ({rc})").into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::CString;
    use std::ptr;

    use libsqlite3_sys::{
        SQLITE_ROW, SQLITE_STMTSTATUS_REPREPARE, sqlite3, sqlite3_bind_int64,
        sqlite3_clear_bindings, sqlite3_finalize, sqlite3_prepare_v2, sqlite3_reset, sqlite3_step,
        sqlite3_stmt, sqlite3_stmt_status,
    };
    use sqlx::Connection;
    use sqlx::sqlite::SqliteConnection;

    /// Runs `SELECT … LIMIT ?1` three times as sqlx does (reset, clear the
    /// bindings, bind, step) and says how often SQLite prepared it again.
    fn reprepared(db: *mut sqlite3) -> i32 {
        let sql = CString::new(
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100)
             SELECT x FROM n LIMIT ?1",
        )
        .unwrap_or_default();
        let mut stmt: *mut sqlite3_stmt = ptr::null_mut();
        // SAFETY: an open handle, locked for the test; the statement is
        // finalized before the function returns.
        unsafe {
            assert_eq!(
                sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, ptr::null_mut()),
                0
            );
            for limit in [10, 10, 20] {
                sqlite3_reset(stmt);
                sqlite3_clear_bindings(stmt);
                sqlite3_bind_int64(stmt, 1, limit);
                assert_eq!(sqlite3_step(stmt), SQLITE_ROW);
            }
            let n = sqlite3_stmt_status(stmt, SQLITE_STMTSTATUS_REPREPARE, 0);
            sqlite3_finalize(stmt);
            n
        }
    }

    #[tokio::test]
    async fn a_statement_run_again_with_new_values_is_not_planned_again() {
        let mut plain = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        let mut kept = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        super::keep_plans(&mut kept).await.unwrap();
        let before = reprepared(plain.lock_handle().await.unwrap().as_raw_handle().as_ptr());
        let after = reprepared(kept.lock_handle().await.unwrap().as_raw_handle().as_ptr());
        // Without the guarantee SQLite plans the statement again at every run
        // after the first (sqlx clears the bindings each time); with it, never.
        assert!(before >= 2, "SQLite prepared it again {before} times");
        assert_eq!(after, 0);
    }
}
