//! Replication and crash safety with real processes: the quire binary, the real
//! Litestream binary, `kill -9`. Runs are repeated; QUIRE_REPLICA_RUNS and
//! QUIRE_CRASH_RUNS raise the counts (benches/durability.sh runs 20 and 50).

#[allow(dead_code, unused_imports)]
#[path = "../api/helpers.rs"]
mod helpers;

mod entrypoint;
mod litestream;
mod neighbours;
mod sites;
