//! Shared set-up for benches: a database in a temporary folder, opened the way
//! `quire serve` opens it.

#![allow(dead_code)]

use quire::config::Config;
use quire::db::Db;

pub async fn open_db(dir: &std::path::Path) -> (Db, Config) {
    let mut config = Config::from_env();
    config.database_url = format!("sqlite://{}", dir.join("quire.db").display());
    let db = Db::open(&config).await.expect("open the bench database");
    (db, config)
}

/// Milliseconds with three decimals, for tables.
pub fn ms(nanos: u64) -> String {
    format!("{:.3}", nanos as f64 / 1e6)
}
