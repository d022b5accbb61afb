//! Operating quire: replication checks, moving to PostgreSQL (snapshots and
//! restores of the SQLite file live with the database, in `db::snapshot`).

pub mod migrate_to;
pub mod replica;
