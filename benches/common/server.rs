//! The real server for benches: seeded database, quire on a random port (in this
//! process, or the `quire` binary as its own process), and a signed-in HTTP
//! client, as a browser would hold it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use quire::accounts::{self, AccountError};
use quire::config::Config;
use quire::db::Db;
use quire::startup::Application;

pub const USER: &str = "bench";
pub const PASSWORD: &str = "bench password 1234";

/// Document sizes the page budget covers, in bytes.
pub const SIZES: [usize; 3] = [1024, 8192, 65536];

pub struct Running {
    pub address: String,
    pub client: reqwest::Client,
    pub csrf: String,
    /// Live document ids by size class (index into `SIZES`), with their versions.
    pub ids: [Vec<(String, i64)>; 3],
    server: Server,
}

enum Server {
    InProcess(Db),
    Process(super::process::Process),
}

impl Running {
    /// Stops the server: closes the database, or SIGTERMs the process.
    pub async fn stop(self) {
        match self.server {
            Server::InProcess(db) => db.close().await,
            Server::Process(p) => p.stop(),
        }
    }
}

/// Where the bench database lives: `QUIRE_BENCH_DB` keeps it between runs.
pub fn database_dir(tmp: &Path, keep: bool) -> PathBuf {
    let dir = std::env::var("QUIRE_BENCH_DB")
        .ok()
        .filter(|_| keep)
        .and_then(|p| PathBuf::from(p).parent().map(Path::to_path_buf))
        .unwrap_or_else(|| tmp.to_path_buf());
    std::fs::create_dir_all(&dir).expect("bench database folder");
    dir
}

/// Seeds `per_size` documents of each size (only what is missing) with the
/// `quire` binary `bin`, then runs `bin serve` on them and signs in: the server
/// measured is that binary (an optimised build, or another build's).
pub async fn spawn(bin: &str, dir: &Path, per_size: usize) -> Running {
    let url = format!("sqlite://{}", dir.join("quire.db").display());
    let had = live_ids(&url).await;
    for (class, size) in SIZES.iter().enumerate() {
        let have = had[class].len();
        if have < per_size {
            let started = Instant::now();
            let status = std::process::Command::new(bin)
                .args(["seed", "--count", &(per_size - have).to_string()])
                .args([
                    "--size",
                    &size.to_string(),
                    "--seed",
                    &(class + 1).to_string(),
                ])
                .env("QUIRE_DATABASE_URL", &url)
                .env("QUIRE_LOG", "warn")
                .status()
                .expect("quire seed");
            assert!(status.success(), "quire seed failed: {status}");
            println!(
                "seeded {} documents of {} KB in {:.1} s",
                per_size - have,
                size / 1024,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let mut ids = live_ids(&url).await;
    for slot in &mut ids {
        slot.truncate(per_size);
    }
    let process = super::process::start(bin, dir, &[]).await;
    Running {
        address: process.address.clone(),
        client: process.client.clone(),
        csrf: process.csrf.clone(),
        ids,
        server: Server::Process(process),
    }
}

/// The live documents of each size class, read with a database opened for
/// just this.
async fn live_ids(url: &str) -> [Vec<(String, i64)>; 3] {
    let mut config = Config::from_env();
    config.database_url = url.to_string();
    let db = Db::open(&config).await.expect("open the bench database");
    let mut ids: [Vec<(String, i64)>; 3] = Default::default();
    for (class, slot) in ids.iter_mut().enumerate() {
        *slot = ids_of(&db, class).await;
    }
    db.close().await;
    ids
}

/// `start` on any database quire can use (`sqlite://…` or `postgres://…`).
pub async fn start_at(database_url: String, per_size: usize, workers: usize) -> Running {
    let mut config = Config::from_env();
    config.database_url = database_url;
    config.bind = "127.0.0.1:0".into();
    config.workers = workers;
    let db = Db::open(&config).await.expect("open the bench database");
    for (class, size) in SIZES.iter().enumerate() {
        let have = ids_of(&db, class).await.len();
        if have < per_size {
            let started = Instant::now();
            quire::seed::seed(
                &db,
                per_size - have,
                *size,
                class as u64 + 1,
                config.max_doc_bytes,
            )
            .await
            .expect("seeding");
            println!(
                "seeded {} documents of {} KB in {:.1} s",
                per_size - have,
                size / 1024,
                started.elapsed().as_secs_f64()
            );
        }
    }
    db.close().await;

    let app = Application::build(config).await.expect("the server starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    let db = app.db();
    tokio::spawn(app.run_until_stopped());
    match accounts::create_user(&db, USER, PASSWORD, true).await {
        Ok(_) | Err(AccountError::Taken) => {}
        Err(e) => panic!("creating the bench user: {e}"),
    }
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .pool_max_idle_per_host(256)
        .build()
        .expect("client");
    let csrf = super::sign_in(&client, &address, USER, PASSWORD).await;
    let mut ids: [Vec<(String, i64)>; 3] = Default::default();
    for (class, slot) in ids.iter_mut().enumerate() {
        *slot = ids_of(&db, class).await;
        slot.truncate(per_size);
    }
    Running {
        address,
        client,
        csrf,
        ids,
        server: Server::InProcess(db),
    }
}

/// Live documents whose size falls in class `class` (bounded by its neighbours).
async fn ids_of(db: &Db, class: usize) -> Vec<(String, i64)> {
    let low = if class == 0 { 0 } else { SIZES[class - 1] };
    quire::db::query_as(
        "SELECT id, version FROM documents
         WHERE deleted_at IS NULL AND size > $1 AND size <= $2 ORDER BY seq",
    )
    .bind(low as i64)
    .bind(SIZES[class] as i64)
    .fetch_all(&db.read)
    .await
    .expect("listing bench documents")
}
