//! Sends what waits in the hooks' outbox: claims a few due deliveries (no
//! other instance takes them meanwhile), posts each to the address its hook
//! names (checked by `guard`, redirects not followed, signed by `sign`), and
//! records the answer. A post answered 2xx is done; any other answer, or none
//! within the time allowed, is tried again later, each wait twice the last,
//! until `TRIES` tries; then it is given up and shown so on the hook's page.

use std::time::{Duration, Instant};

use crate::cidr::CidrList;
use crate::clock::now_ms;
use crate::db::webhooks::{self as stored, Due, Tried};
use crate::db::{Db, Error};

/// Tries of one delivery at most.
pub const TRIES: i64 = 8;

/// How long a claim holds a delivery (longer than a post may take).
const CLAIM_MS: i64 = 60_000;

/// How long one post may take, answer included.
const TIMEOUT: Duration = Duration::from_secs(10);

/// How often an idle sender looks for work (a reader's cheap query).
const POLL: Duration = Duration::from_millis(250);

/// Finished deliveries are kept this long.
const KEEP_MS: i64 = 30 * 24 * 3600 * 1000;

/// How the sender works: the networks it may post into, the first wait.
#[derive(Clone, Debug)]
pub struct Settings {
    pub allowed: CidrList,
    pub retry_ms: i64,
}

impl Settings {
    pub fn from_config(config: &crate::config::Config) -> Self {
        Self {
            allowed: config.hooks.webhook_allow_networks.clone(),
            retry_ms: i64::try_from(config.hooks.webhook_retry_ms).unwrap_or(i64::MAX),
        }
    }
}

/// Sends until the database closes.
pub async fn run(db: Db, settings: Settings) {
    let mut last_tidy = 0;
    loop {
        if db.is_closed() {
            return;
        }
        match send_due(&db, &settings).await {
            Ok(n) if n > 0 => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "sending webhooks failed; trying again"),
        }
        let now = now_ms();
        if now - last_tidy > 3600 * 1000 {
            last_tidy = now;
            let tidied = async {
                let tx = db.begin_write().await?;
                stored::forget(&*tx, now - KEEP_MS).await?;
                tx.commit().await
            };
            if let Err(e) = tidied.await {
                tracing::warn!(error = %e, "forgetting old webhook deliveries failed");
            }
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Sends the deliveries that are due; how many were tried.
pub async fn send_due(db: &Db, settings: &Settings) -> Result<usize, Error> {
    let now = now_ms();
    if !stored::any_due(&db.read, now).await? {
        return Ok(0);
    }
    let tx = db.begin_write().await?;
    let claimed = stored::claim(&*tx, now, now + CLAIM_MS, 10).await?;
    tx.commit().await?;
    let n = claimed.len();
    for due in claimed {
        let started = Instant::now();
        let answer = post(&due, settings).await;
        let ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
        let now = now_ms();
        let tries = due.tries + 1;
        let again = (tries < TRIES).then(|| {
            now + settings
                .retry_ms
                .saturating_mul(1i64 << (tries - 1).clamp(0, 20))
        });
        let tried = match &answer {
            Ok(status) if (200..300).contains(status) => Tried {
                status: Some(*status),
                answer_ms: Some(ms),
                error: None,
                sent_at: Some(now),
                next_try_at: None,
            },
            Ok(status) => Tried {
                status: Some(*status),
                answer_ms: Some(ms),
                error: Some("the receiver did not answer 2xx"),
                sent_at: None,
                next_try_at: again,
            },
            Err(why) => Tried {
                status: None,
                answer_ms: None,
                error: Some(why.as_str()),
                sent_at: None,
                next_try_at: again,
            },
        };
        if tried.sent_at.is_none() {
            tracing::warn!(delivery = due.id, tries, error = ?tried.error, status = ?tried.status,
                "a webhook delivery failed");
        }
        let tx = db.begin_write().await?;
        stored::tried(&*tx, due.id, &tried).await?;
        tx.commit().await?;
    }
    Ok(n)
}

/// Posts one delivery; the answer's status, or why there was none.
async fn post(due: &Due, settings: &Settings) -> Result<i64, String> {
    let url =
        reqwest::Url::parse(&due.url).map_err(|e| format!("the address is not valid: {e}"))?;
    let host = url
        .host_str()
        .ok_or("the address names no host")?
        .to_owned();
    let port = url
        .port_or_known_default()
        .ok_or("the address names no port")?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addr = super::guard::resolve(bare, port, &settings.allowed).await?;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .resolve(&host, addr)
        .user_agent(concat!("quire/", env!("CARGO_PKG_VERSION"), " webhooks"))
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let unix = now_ms() / 1000;
    let res = client
        .post(url)
        .header("Content-Type", "application/json")
        .header("Quire-Event", &due.event)
        .header("Quire-Delivery", due.id.to_string())
        .header(
            "Quire-Signature",
            super::sign::signature(&due.secret, unix, &due.body),
        )
        .body(due.body.clone())
        .send()
        .await
        .map_err(|e| format!("the post failed: {e}"))?;
    Ok(i64::from(res.status().as_u16()))
}
