//! `GET /metrics` for Prometheus: who may read it, and the gauges read at scrape
//! time (pools, documents, replication lag) beside the counters kept in memory.

use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::random::same_secret;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use super::AppState;
use crate::metrics::{self, HttpMetrics, write_gauge};
use crate::web::error::AppError;

/// The replication lag is read from files; scrapes within this long reuse it.
const LAG_REFRESH: Duration = Duration::from_secs(15);

/// The last replication lag worked out, and when.
#[derive(Default)]
pub struct LagCache(Mutex<Option<(Instant, Option<f64>)>>);

impl LagCache {
    fn get(&self, compute: impl FnOnce() -> Option<f64>) -> Option<f64> {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match *slot {
            Some((at, lag)) if at.elapsed() < LAG_REFRESH => lag,
            _ => {
                let lag = compute();
                *slot = Some((Instant::now(), lag));
                lag
            }
        }
    }
}

enum Access {
    Granted,
    /// A token is set and the request did not carry it.
    Refused,
    /// No token is set and the request is not from this machine: act as if
    /// there were no such page.
    Hidden,
}

fn access(req: &HttpRequest, config: &crate::config::Config) -> Access {
    let token = config.metrics_token();
    if let Some(token) = token {
        let sent = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        return match sent {
            Some(s) if same_secret(s, token) => Access::Granted,
            _ => Access::Refused,
        };
    }
    // A reverse proxy on the same machine connects from loopback too: a request
    // it forwarded is not a local one, whether or not it says so.
    let forwarded =
        super::client::claims_forwarded(req.headers()) || super::client::via_proxy(req, config);
    let loopback = req.peer_addr().map(|a| a.ip()).is_some_and(|ip| match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    });
    if loopback && !forwarded {
        Access::Granted
    } else {
        Access::Hidden
    }
}

pub async fn metrics_show(
    req: HttpRequest,
    state: web::Data<AppState>,
    http: web::Data<HttpMetrics>,
    lag: web::Data<LagCache>,
) -> Result<HttpResponse, AppError> {
    match access(&req, &state.config) {
        Access::Granted => {}
        Access::Hidden => return Err(AppError::NotFound),
        Access::Refused => {
            return Ok(HttpResponse::Unauthorized()
                .insert_header((header::WWW_AUTHENTICATE, "Bearer"))
                .content_type("text/plain; charset=utf-8")
                .body("Send Authorization: Bearer with QUIRE_METRICS_TOKEN.\n"));
        }
    }
    let mut out = String::new();
    http.write(&mut out);
    metrics::write_writer_wait(&mut out);
    metrics::write_search_errors(&mut out);
    metrics::write_mail_failures(&mut out);
    write_pools(&mut out, &state);
    write_cache(&mut out, &state);
    write_documents(&mut out, &state).await;
    write_outbox(&mut out, &state).await;
    let config = state.config.clone();
    if let Some(seconds) = lag.get(|| crate::ops::replica::file_replica_lag(&config)) {
        write_gauge(
            &mut out,
            "quire_replication_lag_seconds",
            "Age of the oldest change Litestream recorded that the file:// replica lacks.",
            &[(String::new(), seconds)],
        );
    }
    metrics::write_process(&mut out);
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(out))
}

fn write_pools(out: &mut String, state: &AppState) {
    let mut connections = Vec::new();
    let mut max = Vec::new();
    for pool in state.db.pool_gauges() {
        let name = pool.name;
        let idle = pool.idle as f64;
        let size = f64::from(pool.open);
        connections.push((format!("pool=\"{name}\",state=\"idle\""), idle));
        connections.push((
            format!("pool=\"{name}\",state=\"in_use\""),
            (size - idle).max(0.0),
        ));
        max.push((format!("pool=\"{name}\""), f64::from(pool.most)));
    }
    write_gauge(
        out,
        "quire_db_pool_connections",
        "Open database connections, idle or in use.",
        &connections,
    );
    write_gauge(
        out,
        "quire_db_pool_max_connections",
        "Most connections each pool may open.",
        &max,
    );
}

fn write_cache(out: &mut String, state: &AppState) {
    use std::fmt::Write as _;
    let g = state.cache.gauges();
    out.push_str("# HELP quire_page_cache_views_total Document page views, answered from the page cache or by the database.\n");
    out.push_str("# TYPE quire_page_cache_views_total counter\n");
    let _ = writeln!(
        out,
        "quire_page_cache_views_total{{from=\"cache\"}} {}",
        g.hits
    );
    let _ = writeln!(
        out,
        "quire_page_cache_views_total{{from=\"database\"}} {}",
        g.misses
    );
    out.push_str(
        "# HELP quire_page_cache_emptied_total Times a committed change emptied the page cache.\n",
    );
    out.push_str("# TYPE quire_page_cache_emptied_total counter\n");
    let _ = writeln!(out, "quire_page_cache_emptied_total {}", g.emptied);
    out.push_str("# HELP quire_who_lookups_total Who a request's session or API token belongs to, known from memory or looked up in the database.\n");
    out.push_str("# TYPE quire_who_lookups_total counter\n");
    for (from, n) in [("cache", g.who.0), ("database", g.who.1)] {
        let _ = writeln!(out, "quire_who_lookups_total{{from=\"{from}\"}} {n}");
    }
    write_gauge(
        out,
        "quire_page_cache_bytes",
        "Bytes of pages the page cache holds.",
        &[(String::new(), g.bytes as f64)],
    );
    write_gauge(
        out,
        "quire_page_cache_pages",
        "Pages the page cache holds.",
        &[(String::new(), g.pages as f64)],
    );
}

/// Live and trashed documents.
async fn write_documents(out: &mut String, state: &AppState) {
    let counts = crate::documents::counts(&state.db).await;
    match counts {
        Ok((live, trash)) => write_gauge(
            out,
            "quire_documents",
            "Documents, live or in the trash.",
            &[
                ("state=\"live\"".into(), live as f64),
                ("state=\"trash\"".into(), trash as f64),
            ],
        ),
        Err(e) => tracing::warn!(error = %e, "counting documents for /metrics"),
    }
}

/// Mail waiting to be sent and mail given up on.
async fn write_outbox(out: &mut String, state: &AppState) {
    match crate::notices::mail::outbox(&state.db).await {
        Ok((waiting, failed)) => write_gauge(
            out,
            "quire_mail_outbox",
            "Mail in the outbox: waiting to be sent, or given up on after every try failed.",
            &[
                ("state=\"waiting\"".into(), waiting as f64),
                ("state=\"failed\"".into(), failed as f64),
            ],
        ),
        Err(e) => tracing::warn!(error = %e, "counting mail for /metrics"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lag_is_worked_out_at_most_once_per_interval() {
        let cache = LagCache::default();
        assert_eq!(cache.get(|| Some(3.0)), Some(3.0));
        assert_eq!(cache.get(|| Some(9.0)), Some(3.0));
    }
}
