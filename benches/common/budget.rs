//! Routes of the page budget and the closed-loop clients that time them.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use quire::seed::{Rng, document};
use reqwest::StatusCode;

use super::server::{Running, SIZES};

/// Searches a user would type, from a common word to a part of a word.
const QUERIES: &[&str] = &[
    "garden",
    "garden+ledger",
    "lant",
    "%22copper+signal%22",
    "rchiv",
    "cafe",
    "4242",
    "xyzzy",
];

/// Three letters, as the header's box asks for its live results while a person
/// types: the starts of the corpus's words, and one that starts none.
const PREFIXES: &[&str] = &[
    "gar", "led", "lan", "cop", "sig", "orc", "riv", "win", "xyz",
];

pub enum Kind {
    Document(usize),
    List {
        pages: usize,
    },
    Search,
    /// The live results under the header's box (`/search/live`).
    LiveSearch,
    /// Saves 8 KB documents; versions are tracked so every save is current.
    Save {
        versions: Arc<Vec<AtomicI64>>,
        next: Arc<AtomicUsize>,
    },
}

pub struct Route {
    pub name: &'static str,
    kind: Kind,
    /// Clients at once: `None` for the bench's setting. Saves go one at a time
    /// for the budget (people save now and then; four back-to-back writers
    /// measure the single writer's queue), and again with the setting, reported.
    pub clients: Option<usize>,
    /// Which p99 budget it is held to.
    pub budget: Budget,
}

/// The p99 a route is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The page budget (`QUIRE_P99_BUDGET_MS`).
    Page,
    /// Search on this corpus (`QUIRE_SEARCH_P99_BUDGET_MS`): adversarial, every
    /// query matches nearly every document.
    Search,
    /// Live results for three letters (`QUIRE_BENCH_LIVE_BUDGET_MS`).
    Live,
    /// Measured and reported only.
    Reported,
}

impl Route {
    pub fn all(running: &Running) -> Vec<Route> {
        let total: usize = running.ids.iter().map(Vec::len).sum();
        let versions: Arc<Vec<AtomicI64>> = Arc::new(
            running.ids[1]
                .iter()
                .map(|(_, v)| AtomicI64::new(*v))
                .collect(),
        );
        let next = Arc::new(AtomicUsize::new(0));
        vec![
            Route {
                name: "document 1KB",
                kind: Kind::Document(0),
                clients: None,
                budget: Budget::Page,
            },
            Route {
                name: "document 8KB",
                kind: Kind::Document(1),
                clients: None,
                budget: Budget::Page,
            },
            Route {
                name: "document 64KB",
                kind: Kind::Document(2),
                clients: None,
                budget: Budget::Page,
            },
            Route {
                name: "list",
                kind: Kind::List {
                    pages: total.div_ceil(quire::documents::PAGE_SIZE as usize),
                },
                clients: None,
                budget: Budget::Page,
            },
            Route {
                name: "search",
                kind: Kind::Search,
                clients: None,
                // Held to a budget of its own: on this corpus of a 58-word
                // vocabulary every query matches nearly every document
                // (docs/PERFORMANCE.md); real text is measured by
                // benches/real-corpus.sh.
                budget: Budget::Search,
            },
            Route {
                name: "live search",
                kind: Kind::LiveSearch,
                clients: None,
                budget: Budget::Live,
            },
            Route {
                name: "save 8KB",
                kind: Kind::Save {
                    versions: versions.clone(),
                    next: next.clone(),
                },
                clients: Some(1),
                budget: Budget::Page,
            },
            Route {
                name: "save 8KB busy",
                kind: Kind::Save { versions, next },
                clients: None,
                budget: Budget::Reported,
            },
        ]
    }

    /// One request, timed from send to the last byte of the body.
    async fn once(&self, running: &Running, rng: &mut Rng) -> Result<Duration, String> {
        let base = &running.address;
        let (request, want, saved) = match &self.kind {
            Kind::Document(class) => {
                let ids = &running.ids[*class];
                let (id, _) = &ids[rng.below(ids.len())];
                (
                    running.client.get(format!("{base}/d/{id}")),
                    StatusCode::OK,
                    None,
                )
            }
            Kind::List { pages } => {
                let page = 1 + rng.below((*pages).max(1));
                (
                    running.client.get(format!("{base}/?page={page}")),
                    StatusCode::OK,
                    None,
                )
            }
            Kind::Search => {
                let q = QUERIES[rng.below(QUERIES.len())];
                (
                    running.client.get(format!("{base}/search?q={q}")),
                    StatusCode::OK,
                    None,
                )
            }
            Kind::LiveSearch => {
                let q = PREFIXES[rng.below(PREFIXES.len())];
                let request = running
                    .client
                    .get(format!("{base}/search/live?q={q}"))
                    .header("HX-Request", "true")
                    .header("HX-Target", "live-results");
                (request, StatusCode::OK, None)
            }
            Kind::Save { versions, next } => {
                let i = next.fetch_add(1, Ordering::Relaxed) % versions.len();
                let (id, _) = &running.ids[1][i];
                let version = versions[i].load(Ordering::Relaxed);
                let (title, mut body) = document(rng, SIZES[1] - 200);
                body.push_str(&format!("\n\nEdit {}.\n", rng.next_u64()));
                let form = [
                    ("title", title),
                    ("body", body),
                    ("version", version.to_string()),
                    ("csrf", running.csrf.clone()),
                ];
                let request = running.client.post(format!("{base}/d/{id}")).form(&form);
                (request, StatusCode::SEE_OTHER, Some(&versions[i]))
            }
        };
        let started = Instant::now();
        let res = request
            .send()
            .await
            .map_err(|e| format!("{}: {e}", self.name))?;
        let status = res.status();
        let body = res
            .bytes()
            .await
            .map_err(|e| format!("{}: {e}", self.name))?;
        let took = started.elapsed();
        if status != want {
            let text = String::from_utf8_lossy(&body);
            return Err(format!(
                "{}: answered {status}, expected {want}: {}",
                self.name,
                text.chars().take(300).collect::<String>()
            ));
        }
        if let Some(v) = saved {
            v.fetch_add(1, Ordering::Relaxed);
        }
        Ok(took)
    }

    /// For criterion: `iters` requests one after another, their summed time.
    pub async fn timed(&self, running: &Running, iters: u64) -> Duration {
        let mut rng = Rng::new(iters ^ 0x9e37_79b9);
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            total += self
                .once(running, &mut rng)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
        }
        total
    }
}

pub struct Outcome {
    name: &'static str,
    budget: Budget,
    clients: usize,
    hist: Histogram<u64>,
    wall: Duration,
    failures: Vec<String>,
}

/// `requests` requests spread over `clients` closed-loop clients (each sends its
/// next request when the previous answer is in), after a short warm-up.
pub async fn measure(running: &Running, route: &Route, requests: usize, clients: usize) -> Outcome {
    let clients = route.clients.unwrap_or(clients);
    let mut warm = Rng::new(99);
    for _ in 0..requests.min(50) {
        // Failures here show up again in the measured run.
        let _ = route.once(running, &mut warm).await;
    }
    let started = Instant::now();
    let per_client = requests.div_ceil(clients);
    let runs = (0..clients).map(|c| async move {
        let mut rng = Rng::new(c as u64 + 1);
        let mut hist = Histogram::<u64>::new(3).expect("histogram");
        let mut failures = Vec::new();
        for _ in 0..per_client {
            match route.once(running, &mut rng).await {
                Ok(took) => hist.record(took.as_micros() as u64).expect("record"),
                Err(e) => failures.push(e),
            }
        }
        (hist, failures)
    });
    let mut hist = Histogram::<u64>::new(3).expect("histogram");
    let mut failures = Vec::new();
    for (h, f) in futures::future::join_all(runs).await {
        hist.add(h).expect("merge histograms");
        failures.extend(f);
    }
    Outcome {
        name: route.name,
        budget: route.budget,
        clients,
        hist,
        wall: started.elapsed(),
        failures,
    }
}

impl Outcome {
    pub fn ms(&self, q: f64) -> f64 {
        self.hist.value_at_quantile(q) as f64 / 1000.0
    }

    /// Why the run fails because of this route, if it does: a failed request,
    /// or (when `enforce`) a p99 over its budget, `[page, search, live]` in ms.
    pub fn breach(&self, [page_ms, search_ms, live_ms]: [f64; 3], enforce: bool) -> Option<String> {
        if let Some(first) = self.failures.first() {
            return Some(format!(
                "{} requests failed, first: {first}",
                self.failures.len()
            ));
        }
        let budget_ms = match self.budget {
            Budget::Page => page_ms,
            Budget::Search => search_ms,
            Budget::Live => live_ms,
            Budget::Reported => return None,
        };
        let p99 = self.ms(0.99);
        (enforce && p99 > budget_ms)
            .then(|| format!("{}: p99 {p99:.2} ms > {budget_ms} ms", self.name))
    }
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn failures(&self) -> usize {
        self.failures.len()
    }

    /// requests, req/s, p50, p90, p99, max (ms): the numbers of a table row.
    pub fn numbers(&self) -> (u64, f64, [f64; 4]) {
        let rate = self.hist.len() as f64 / self.wall.as_secs_f64();
        let max = self.hist.max() as f64 / 1000.0;
        let q = [self.ms(0.50), self.ms(0.90), self.ms(0.99), max];
        (self.hist.len(), rate, q)
    }

    pub fn csv(&self) -> String {
        let (n, rate, [p50, p90, p99, max]) = self.numbers();
        format!(
            "{},{},{n},{rate:.0},{p50:.3},{p90:.3},{p99:.3},{max:.3}\n",
            self.name, self.clients
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, rate, [p50, p90, p99, max]) = self.numbers();
        let note = match self.budget {
            Budget::Page => "",
            Budget::Search => "  (search budget)",
            Budget::Live => "  (live search budget)",
            Budget::Reported => "  (reported, not budgeted)",
        };
        write!(
            f,
            "{:<16} {:>7} {n:>8} {rate:>9.0} {p50:>9.2} {p90:>9.2} {p99:>9.2} {max:>9.2}{note}",
            self.name, self.clients
        )
    }
}
