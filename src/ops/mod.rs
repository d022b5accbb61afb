//! Operating quire: snapshots, restores, replication checks.

pub mod backup;
pub mod replica;
