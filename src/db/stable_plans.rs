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
