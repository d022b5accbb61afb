//! Operating quire: snapshots, restores, replication checks, moving to PostgreSQL.

pub mod backup;
pub mod migrate_to;
pub mod replica;
