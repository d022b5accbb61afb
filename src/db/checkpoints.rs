//! SQLite's WAL checkpoints off the write path. By default SQLite checkpoints
//! in the commit that takes the WAL past 1,000 pages: the write connection
//! copies them into the database file and syncs it before it takes the next
//! write, and every save queued behind it waits (docs/PERFORMANCE.md,
//! "Checkpoints beside the writer"). A server checkpoints from a reader
//! instead, every 50 ms, and its writer checkpoints itself only at
//! `WRITER_BOUND` pages: when this one fell behind, and then it finds most
//! pages copied already. The checkpoints are `PASSIVE`: they copy what no
//! reader still needs, never wait for one and never truncate the WAL. Where
//! Litestream replicates the database its read transaction holds them back
//! and it makes its own; these then copy nothing.

use std::time::Duration;

use super::{Backend, Db};

/// Pages in the WAL at which a server's writer checkpoints itself.
const WRITER_BOUND: u32 = 10_000;

/// How often a server checkpoints from a reader.
const EVERY: Duration = Duration::from_millis(50);

impl Db {
    /// Checkpoints the WAL from a reader until the database closes, and lets
    /// the writer wait for `WRITER_BOUND` pages (SQLite; a server calls this
    /// once). A writer connection opened again later (after a failed
    /// transaction left it unusable) checkpoints at SQLite's 1,000 pages.
    pub async fn checkpoint_beside_the_writer(&self) -> Result<(), super::Error> {
        if self.backend != Backend::Sqlite || self.path.is_none() {
            return Ok(());
        }
        super::query(format!("PRAGMA wal_autocheckpoint = {WRITER_BOUND}"))
            .execute(&*self.write)
            .await?;
        tokio::spawn(run(self.read.clone()));
        Ok(())
    }
}

async fn run(readers: sea_orm::DatabaseConnection) {
    let mut failing = false;
    loop {
        tokio::time::sleep(EVERY).await;
        if readers.get_sqlite_connection_pool().is_closed() {
            return;
        }
        match super::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&readers)
            .await
        {
            Ok(_) => failing = false,
            Err(e) if !failing => {
                failing = true;
                tracing::warn!(error = %e, "a checkpoint beside the writer failed; the writer checkpoints at its bound");
            }
            Err(_) => {}
        }
    }
}
