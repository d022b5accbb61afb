//! A graceful stop that finishes every request in flight before any worker stops.
//!
//! actix-web stops each worker on its own: an idle worker's runtime ends at once,
//! while a busy one finishes its requests. A PostgreSQL connection belongs to the
//! runtime that opened it, and the pool hands connections to every worker, so a
//! request finishing on a busy worker could be given a connection whose runtime had
//! just gone ("A Tokio 1.x context was found, but it is being shutdown": a 500 for
//! a request quire had promised to finish). So a stop first takes no new
//! connections, then waits for the requests in flight (at most `timeout`), and only
//! then stops the workers, all of whose runtimes are still running until then.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServerHandle, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use tokio::sync::Notify;

/// How many requests are being answered right now, across all workers.
#[derive(Clone, Default)]
pub struct InFlight(Arc<Counter>);

#[derive(Default)]
struct Counter {
    requests: AtomicUsize,
    idle: Notify,
}

/// Held while a request is answered; dropped when its handler finishes or is
/// dropped (a client that went away).
struct Guard(Arc<Counter>);

impl Drop for Guard {
    fn drop(&mut self) {
        if self.0.requests.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl InFlight {
    fn enter(&self) -> Guard {
        self.0.requests.fetch_add(1, Ordering::SeqCst);
        Guard(self.0.clone())
    }

    /// Returns once no request is in flight, or after `timeout`; true if drained.
    async fn drained(&self, timeout: Duration) -> bool {
        let wait = async {
            loop {
                let idle = self.0.idle.notified();
                tokio::pin!(idle);
                // Registered before the count is read, so no wake-up is missed.
                idle.as_mut().enable();
                if self.0.requests.load(Ordering::SeqCst) == 0 {
                    return;
                }
                idle.await;
            }
        };
        tokio::time::timeout(timeout, wait).await.is_ok()
    }
}

/// Counts the request for as long as its handler runs.
pub async fn wrap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let _guard = req
        .app_data::<web::Data<InFlight>>()
        .map(|counter| counter.enter());
    next.call(req).await
}

/// Stops the server as SIGTERM and SIGINT do; cheap to clone.
#[derive(Clone)]
pub struct Stopper {
    handle: ServerHandle,
    in_flight: InFlight,
    timeout: Duration,
    draining: Arc<AtomicBool>,
}

impl Stopper {
    pub fn new(handle: ServerHandle, in_flight: InFlight, timeout: Duration) -> Self {
        Self {
            handle,
            in_flight,
            timeout,
            draining: Arc::default(),
        }
    }

    /// True once the server takes no new connections.
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Takes no new connections, lets the requests in flight finish (at most the
    /// timeout), then stops every worker.
    pub async fn stop(&self) {
        self.handle.pause().await;
        self.draining.store(true, Ordering::SeqCst);
        if !self.in_flight.drained(self.timeout).await {
            tracing::warn!(
                seconds = self.timeout.as_secs(),
                "requests still in flight when the stop's time ran out"
            );
        }
        self.handle.stop(true).await;
    }
}

/// SIGTERM and SIGINT, listened for from the moment this is made: a signal that
/// comes before the server runs is not lost (nor does it kill the process).
pub struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl Signals {
    #[cfg(unix)]
    pub fn listen() -> std::io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            term: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    #[cfg(not(unix))]
    pub fn listen() -> std::io::Result<Self> {
        Ok(Self {})
    }

    async fn first(mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.interrupt.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Stops the server gracefully on the first SIGTERM or SIGINT.
pub async fn on_signal(signals: Signals, stopper: Stopper) {
    signals.first().await;
    tracing::info!("stopping: finishing the requests in flight");
    stopper.stop().await;
}
