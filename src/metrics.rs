//! What `/metrics` reports, kept in memory: request counts and latencies per
//! route, the writer's queue wait, and the process's own facts, written out in
//! the Prometheus text format.
//!
//! Request metrics belong to one server (`HttpMetrics`, shared by its workers);
//! the writer wait is process-wide because `Db::begin_write` has no server to
//! report to.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Upper bounds of the latency buckets, in seconds; `+Inf` follows.
pub const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// A latency histogram. Each slot counts the observations that fell in it
/// alone; the cumulative Prometheus counts are summed when written out.
pub struct Histogram {
    slots: [AtomicU64; BUCKETS.len() + 1],
    sum_nanos: AtomicU64,
}

impl Histogram {
    pub const fn new() -> Self {
        Self {
            slots: [const { AtomicU64::new(0) }; BUCKETS.len() + 1],
            sum_nanos: AtomicU64::new(0),
        }
    }

    pub fn observe(&self, took: Duration) {
        let secs = took.as_secs_f64();
        let slot = BUCKETS
            .iter()
            .position(|&bound| secs <= bound)
            .unwrap_or(BUCKETS.len());
        self.slots[slot].fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The `_bucket`, `_sum` and `_count` lines, each with `labels` (already
    /// formatted, `k="v",` pairs or empty) before `le`.
    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut total = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            total += slot.load(Ordering::Relaxed);
            let le = BUCKETS.get(i).map_or("+Inf".to_owned(), |b| b.to_string());
            let _ = writeln!(out, "{name}_bucket{{{labels}le=\"{le}\"}} {total}");
        }
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let plain = match labels.trim_end_matches(',') {
            "" => String::new(),
            l => format!("{{{l}}}"),
        };
        let _ = writeln!(out, "{name}_sum{plain} {sum}");
        let _ = writeln!(out, "{name}_count{plain} {total}");
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Default)]
struct Series {
    statuses: BTreeMap<u16, u64>,
    duration: Histogram,
}

/// Requests by route pattern and method. The keys are bounded: routes come from
/// the route table (or `unmatched`) and methods from `method_label`.
#[derive(Default)]
pub struct HttpMetrics {
    series: Mutex<BTreeMap<String, BTreeMap<&'static str, Series>>>,
}

/// The method as a label; anything unusual is `OTHER`, so a client cannot grow
/// the series without bound by inventing methods.
pub fn method_label(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}

impl HttpMetrics {
    pub fn record(&self, route: &str, method: &'static str, status: u16, took: Duration) {
        let mut series = self.series.lock().unwrap_or_else(|e| e.into_inner());
        // The route is copied once, the first time it is seen, not per request.
        if !series.contains_key(route) {
            series.insert(route.to_owned(), BTreeMap::new());
        }
        let Some(methods) = series.get_mut(route) else {
            return;
        };
        let entry = methods.entry(method).or_default();
        *entry.statuses.entry(status).or_default() += 1;
        entry.duration.observe(took);
    }

    pub fn write(&self, out: &mut String) {
        let series = self.series.lock().unwrap_or_else(|e| e.into_inner());
        out.push_str("# HELP quire_http_requests_total HTTP requests answered, by route pattern, method and status.\n");
        out.push_str("# TYPE quire_http_requests_total counter\n");
        let all = || {
            series
                .iter()
                .flat_map(|(route, methods)| methods.iter().map(move |(m, s)| (route, m, s)))
        };
        for (route, method, s) in all() {
            for (status, n) in &s.statuses {
                let _ = writeln!(
                    out,
                    "quire_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {n}",
                    escape(route)
                );
            }
        }
        out.push_str("# HELP quire_http_request_duration_seconds Time to answer a request, by route pattern and method.\n");
        out.push_str("# TYPE quire_http_request_duration_seconds histogram\n");
        for (route, method, s) in all() {
            let labels = format!("route=\"{}\",method=\"{method}\",", escape(route));
            s.duration
                .write(out, "quire_http_request_duration_seconds", &labels);
        }
    }
}

static WRITER_WAIT: Histogram = Histogram::new();

/// Called by `Db::begin_write` with how long it waited for the write transaction.
pub fn record_writer_wait(took: Duration) {
    WRITER_WAIT.observe(took);
}

pub fn write_writer_wait(out: &mut String) {
    out.push_str(
        "# HELP quire_db_writer_wait_seconds Time spent waiting to start a write transaction.\n",
    );
    out.push_str("# TYPE quire_db_writer_wait_seconds histogram\n");
    WRITER_WAIT.write(out, "quire_db_writer_wait_seconds", "");
}

static SEARCH_ERRORS: AtomicU64 = AtomicU64::new(0);

/// Called when a search query fails, which is a bug: the user's words are
/// never syntax.
pub fn record_search_error() {
    SEARCH_ERRORS.fetch_add(1, Ordering::Relaxed);
}

pub fn write_search_errors(out: &mut String) {
    out.push_str("# HELP quire_search_errors_total Search queries the database refused.\n");
    out.push_str("# TYPE quire_search_errors_total counter\n");
    let n = SEARCH_ERRORS.load(Ordering::Relaxed);
    let _ = writeln!(out, "quire_search_errors_total {n}");
}

static MAIL_FAILURES: AtomicU64 = AtomicU64::new(0);

/// Called when the SMTP server refused a mail or could not be reached.
pub fn record_mail_failure() {
    MAIL_FAILURES.fetch_add(1, Ordering::Relaxed);
}

pub fn write_mail_failures(out: &mut String) {
    out.push_str("# HELP quire_mail_failures_total Tries to send a mail that failed.\n");
    out.push_str("# TYPE quire_mail_failures_total counter\n");
    let n = MAIL_FAILURES.load(Ordering::Relaxed);
    let _ = writeln!(out, "quire_mail_failures_total {n}");
}

static STARTED: OnceLock<f64> = OnceLock::new();

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Remembers when the process started serving; later calls change nothing.
pub fn mark_start() {
    STARTED.get_or_init(unix_now);
}

pub fn write_process(out: &mut String) {
    out.push_str("# HELP quire_build_info The running version of quire.\n");
    out.push_str("# TYPE quire_build_info gauge\n");
    let _ = writeln!(
        out,
        "quire_build_info{{version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str(
        "# HELP quire_process_start_time_seconds When the process started, in Unix seconds.\n",
    );
    out.push_str("# TYPE quire_process_start_time_seconds gauge\n");
    let started = *STARTED.get_or_init(unix_now);
    let _ = writeln!(out, "quire_process_start_time_seconds {started}");
}

/// One gauge with its help and type lines and one sample per label set.
pub fn write_gauge(out: &mut String, name: &str, help: &str, samples: &[(String, f64)]) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} gauge");
    for (labels, value) in samples {
        match labels.as_str() {
            "" => {
                let _ = writeln!(out, "{name} {value}");
            }
            l => {
                let _ = writeln!(out, "{name}{{{l}}} {value}");
            }
        }
    }
}

/// A label value as the text format wants it.
pub fn escape(value: &str) -> String {
    value
        .replace('\\', r"\\")
        .replace('"', "\\\"")
        .replace('\n', r"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_and_end_in_inf() {
        let h = Histogram::new();
        h.observe(Duration::from_micros(500));
        h.observe(Duration::from_millis(30));
        h.observe(Duration::from_secs(10));
        let mut out = String::new();
        h.write(&mut out, "x", "a=\"b\",");
        assert!(out.contains("x_bucket{a=\"b\",le=\"0.001\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{a=\"b\",le=\"0.05\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{a=\"b\",le=\"5\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{a=\"b\",le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count{a=\"b\"} 3\n"), "{out}");
        assert!(out.contains("x_sum{a=\"b\"} 10.0305\n"), "{out}");
    }

    #[test]
    fn requests_are_counted_per_route_method_and_status() {
        let m = HttpMetrics::default();
        m.record("/d/{id}", "GET", 200, Duration::from_millis(2));
        m.record("/d/{id}", "GET", 200, Duration::from_millis(3));
        m.record("/d/{id}", "GET", 404, Duration::from_millis(1));
        let mut out = String::new();
        m.write(&mut out);
        assert!(out.contains(
            "quire_http_requests_total{route=\"/d/{id}\",method=\"GET\",status=\"200\"} 2\n"
        ));
        assert!(out.contains(
            "quire_http_request_duration_seconds_count{route=\"/d/{id}\",method=\"GET\"} 3\n"
        ));
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
