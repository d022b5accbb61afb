//! Limits on what one client may hold: a request body must arrive in full within
//! `QUIRE_BODY_TIMEOUT` seconds (a client dribbling a body is answered 408 and
//! its connection closed), and each worker serves at most its share of
//! `QUIRE_MAX_CONNECTIONS` connections, saying so in the log when it is full.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Extensions, Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, web};
use futures_util::Stream;

/// How long a request body may take to arrive.
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub Duration);

/// The request's body, noting when it has been read to its end.
struct Watched {
    inner: Payload,
    done: Rc<Cell<bool>>,
}

impl Stream for Watched {
    type Item = Result<web::Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = Pin::new(&mut self.inner).poll_next(cx);
        if matches!(next, Poll::Ready(None)) {
            self.done.set(true);
        }
        next
    }
}

fn has_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0)
}

/// Answers 408 and closes the connection when the body is still arriving after
/// the limit; a handler still working on a body it has read in full (a large
/// import) is left to finish.
pub async fn body_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req.app_data::<web::Data<BodyTimeout>>().map(|t| t.0);
    let Some(limit) = limit.filter(|_| has_body(&req)) else {
        return next.call(req).await;
    };
    let done = Rc::new(Cell::new(false));
    let inner = req.take_payload();
    req.set_payload(Payload::Stream {
        payload: Box::pin(Watched {
            inner,
            done: done.clone(),
        }),
    });
    let call = next.call(req);
    tokio::pin!(call);
    tokio::select! {
        res = &mut call => return res,
        () = tokio::time::sleep(limit) => {}
    }
    if done.get() {
        return call.await;
    }
    tracing::warn!(
        seconds = limit.as_secs(),
        "a request body did not arrive in time (QUIRE_BODY_TIMEOUT); closing the connection"
    );
    Err(SlowBody.into())
}

/// A body that did not arrive in time: 408, and the connection is closed.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
struct SlowBody;

impl actix_web::ResponseError for SlowBody {
    fn status_code(&self) -> StatusCode {
        StatusCode::REQUEST_TIMEOUT
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(StatusCode::REQUEST_TIMEOUT)
            .force_close()
            .content_type("text/plain; charset=utf-8")
            .body("The request body did not arrive in time. Send it again.")
    }
}

thread_local! {
    /// Open connections on this worker thread.
    static OPEN: Cell<usize> = const { Cell::new(0) };
    /// When this worker last said it was full, so a flood gives a line every
    /// few seconds, not one per connection.
    static SAID: Cell<Option<std::time::Instant>> = const { Cell::new(None) };
}

/// Lives in a connection's extensions: counts it while it is open.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        OPEN.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// The `on_connect` hook: counts the connection, and logs when the worker has
/// reached its share of the cap (it then accepts no more until one closes).
pub fn count_connection(
    per_worker: usize,
    total: usize,
) -> impl Fn(&dyn std::any::Any, &mut Extensions) {
    move |_, extensions| {
        let open = OPEN.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        extensions.insert(Counted);
        let quiet = SAID.with(|t| {
            t.get()
                .is_some_and(|at| at.elapsed() < Duration::from_secs(10))
        });
        if open >= per_worker && !quiet {
            SAID.with(|t| t.set(Some(std::time::Instant::now())));
            tracing::warn!(
                open,
                cap = total,
                "connection cap reached (QUIRE_MAX_CONNECTIONS): new connections wait \
                 until open ones close"
            );
        }
    }
}
