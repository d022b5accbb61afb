//! Builds the server on a listener it binds itself, so callers (tests, benches)
//! can ask for port 0 and learn the port that was chosen.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpResponse, HttpServer, web};
use anyhow::Context;

use crate::config::Config;
use crate::db::Db;
use crate::metrics::{self, HttpMetrics};
use crate::web::error::AppError;
use crate::web::form::FormLimit;
use crate::web::metrics::LagCache;
use crate::web::middleware::drain::{self, InFlight, Signals, Stopper};
use crate::web::middleware::limits::{self, BodyTimeout, UploadBudget};
use crate::web::middleware::security_headers::security_headers;
use crate::web::middleware::{db_gate, layout, observe, proxy_sign_in};
use crate::web::setup::SetupToken;
use crate::web::{AppState, extractor_errors};

pub struct Application {
    port: u16,
    server: Server,
    stopper: Stopper,
    signals: Signals,
    db: Db,
}

impl Application {
    /// Opens the database (running migrations) and binds `config.bind`.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let started = Instant::now();
        let db = Db::open(&config).await?;
        tokio::spawn(crate::db::search::queue::run_indexer(db.clone()));
        db.start_group_commit();
        db.watch_changes();
        tokio::spawn(crate::documents::rerender::redo_old_pages(db.clone()));
        let base = config.public_url.clone().unwrap_or_default();
        let base = base.trim_end_matches('/').to_owned();
        tokio::spawn(crate::notices::notifier::run(db.clone(), base));
        if let Some(reader) = crate::documents::extraction::reader(&config.attachment_text)? {
            tokio::spawn(crate::documents::extraction::run(db.clone(), reader));
        }
        let hooks = crate::webhooks::sender::Settings::from_config(&config);
        tokio::spawn(crate::webhooks::sender::run(db.clone(), hooks));
        match crate::notices::mail::Mailer::from_config(&config) {
            Ok(Some(mailer)) => {
                tokio::spawn(crate::notices::mail::run(db.clone(), mailer));
            }
            Ok(None) => {}
            Err(e) => anyhow::bail!("{e}"),
        }
        let listener =
            TcpListener::bind(&config.bind).with_context(|| format!("binding {}", config.bind))?;
        let port = listener.local_addr()?.port();
        let in_flight = InFlight::default();
        let setup = first_run(&db, &config, port).await?;
        let server = serve(listener, db.clone(), config, in_flight.clone(), setup)?;
        let stopper = Stopper::new(server.handle(), in_flight, SHUTDOWN_TIMEOUT);
        let signals = Signals::listen().context("listening for SIGTERM and SIGINT")?;
        tracing::info!(
            port,
            ms = started.elapsed().as_millis() as u64,
            "quire is ready"
        );
        Ok(Self {
            port,
            server,
            stopper,
            signals,
            db,
        })
    }

    /// The database handle the server uses (for set-up in tests and tools).
    pub fn db(&self) -> Db {
        self.db.clone()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server as SIGTERM does (the requests in flight finish first), for
    /// tests that restart it in-process.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Runs until SIGINT/SIGTERM (or `Stopper::stop`): the server stops accepting,
    /// lets in-flight requests finish, then the database is closed cleanly.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let signals = tokio::spawn(drain::on_signal(self.signals, self.stopper));
        let result = self.server.await.context("running the HTTP server");
        signals.abort();
        self.db.close().await;
        result
    }
}

async fn not_found() -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}

/// How long a stop waits for requests in flight, then for connections to close.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);

/// With no account yet, a one-time setup link, printed in the log.
async fn first_run(db: &Db, config: &Config, port: u16) -> anyhow::Result<SetupToken> {
    if crate::accounts::user_count(db).await? > 0 {
        return Ok(SetupToken::default());
    }
    let token = crate::random::random_token();
    let base = match &config.public_url {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => {
            let host = config.bind.rsplit_once(':').map_or("localhost", |(h, _)| h);
            let host = match host {
                "0.0.0.0" | "[::]" | "" => "localhost",
                h => h,
            };
            format!("http://{host}:{port}")
        }
    };
    tracing::warn!(
        "no accounts yet: open {base}/setup/{token} in a browser to create the first \
         administrator (the link works once, until quire restarts), or run \
         `quire user add NAME --admin`"
    );
    Ok(SetupToken::new(Some(token)))
}

fn serve(
    listener: TcpListener,
    db: Db,
    config: Config,
    in_flight: InFlight,
    setup: SetupToken,
) -> anyhow::Result<Server> {
    let workers = match config.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let limit = web::Data::new(FormLimit::for_cap(config.max_doc_bytes));
    let body_timeout = web::Data::new(BodyTimeout(Duration::from_secs(config.body_timeout)));
    // One budget for the whole process, shared by every worker.
    let uploads = web::Data::new(UploadBudget::new(config.upload_memory_bytes));
    // actix-web caps connections per worker; the setting is the total.
    let per_worker = config.max_connections.div_ceil(workers).max(1);
    let max_connections = config.max_connections;
    let cap = config.max_doc_bytes;
    crate::documents::word_forms::set_language(&config.search_language)
        .map_err(anyhow::Error::msg)?;
    let cache = crate::web::cache::PageCache::new(db.changes.clone(), config.page_cache_mb << 20);
    let oidc = crate::web::oidc::provider(&config)?;
    let state = web::Data::new(AppState {
        db,
        config,
        cache,
        oidc,
    });
    metrics::mark_start();
    let http_metrics = web::Data::new(HttpMetrics::default());
    let lag = web::Data::new(LagCache::default());
    let in_flight = web::Data::new(in_flight);
    let setup = web::Data::new(setup);
    let proxy_links = web::Data::new(proxy_sign_in::ProxyLinks::default());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(limit.clone())
            .app_data(body_timeout.clone())
            .app_data(uploads.clone())
            .app_data(http_metrics.clone())
            .app_data(lag.clone())
            .app_data(in_flight.clone())
            .app_data(setup.clone())
            .app_data(proxy_links.clone())
            .app_data(crate::web::api::json_config(cap))
            .configure(extractor_errors)
            .configure(crate::app)
            .default_service(web::to(not_found))
            .wrap(from_fn(proxy_sign_in::wrap))
            .wrap(from_fn(db_gate::wrap))
            .wrap(from_fn(layout::wrap))
            .wrap(security_headers())
            .wrap(from_fn(limits::body_deadline))
            .wrap(from_fn(observe::wrap))
            .wrap(from_fn(drain::wrap))
    })
    .on_connect(limits::count_connection(per_worker, max_connections))
    .listen(listener)?
    .workers(workers)
    .max_connections(per_worker)
    .shutdown_timeout(SHUTDOWN_TIMEOUT.as_secs())
    // quire stops on signals itself, so that every request in flight finishes
    // before any worker stops (see `web::middleware::drain`).
    .disable_signals()
    // A client gets 10 s to send its request head, then the connection is closed.
    .client_request_timeout(Duration::from_secs(10))
    .run();
    Ok(server)
}
