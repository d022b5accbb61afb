//! Checks of the SQLite files before they are opened, so a file quire cannot use
//! is refused at start with its path and what to do, not met later as a crash.

use std::path::{Path, PathBuf};

/// The database file and the `-wal` and `-shm` files SQLite keeps beside it.
fn with_sidecars(path: &Path) -> [PathBuf; 3] {
    let side = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [path.to_owned(), side("-wal"), side("-shm")]
}

/// An existing database file is not empty: SQLite would take a 0-byte file for
/// a new database and quire would start over it as if nothing had been there,
/// while such a file is most likely a failed copy or restore.
pub fn check_not_empty(path: &Path) -> anyhow::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
        anyhow::bail!(
            "the database file {} exists but is empty (0 bytes), so it is not a database \
             quire made (a failed copy or restore?). Restore a backup over it, or delete it \
             to start with a new, empty database",
            path.display()
        );
    }
    Ok(())
}

/// Every one of the database's files that exists can be opened for writing. An
/// unwritable `-shm` would otherwise be mapped into memory and end the process
/// with SIGBUS at the first write, with no log line.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    for file in with_sidecars(path) {
        if !file.exists() {
            continue;
        }
        if let Err(e) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&file)
        {
            anyhow::bail!(
                "the database file {} cannot be written ({e}). quire writes the database \
                 and the -wal and -shm files beside it: check their owner and permissions \
                 (and `lsattr` for the immutable flag), then start quire again",
                file.display()
            );
        }
    }
    Ok(())
}

/// One connection to a SQLite file quire does not serve from (a snapshot being
/// made or checked); `close_file` when done.
pub async fn open_file(
    path: &Path,
    read_only: bool,
) -> anyhow::Result<sea_orm::DatabaseConnection> {
    use anyhow::Context;
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .read_only(read_only)
        .busy_timeout(std::time::Duration::from_secs(5));
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .with_context(|| format!("opening {}", path.display()))?;
    Ok(sea_orm::SqlxSqliteConnector::from_sqlx_sqlite_pool(pool))
}

pub async fn close_file(conn: sea_orm::DatabaseConnection) {
    conn.get_sqlite_connection_pool().close().await;
}
