//! Limits on what clients may hold: a request body must arrive in full within
//! `QUIRE_BODY_TIMEOUT` seconds (a client dribbling a body is answered 408 and
//! its connection closed), each worker serves at most its share of
//! `QUIRE_MAX_CONNECTIONS` connections, saying so in the log when it is full, and
//! the files being received at once hold at most `QUIRE_UPLOAD_MEMORY_BYTES`.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Extensions, Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use futures_util::Stream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

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

/// How long an upload waits for room in the budget before it is refused.
const UPLOAD_WAIT: Duration = Duration::from_secs(5);

/// The memory all uploads being received at once may hold, shared by every
/// worker. Room is counted in KiB, so the budget can exceed 4 GiB.
#[derive(Clone, Debug)]
pub struct UploadBudget {
    room: Arc<Semaphore>,
    total_kib: u32,
}

/// Room held in the budget; given back when dropped (the upload stored or
/// refused, or its client gone).
#[derive(Debug)]
pub struct UploadRoom {
    _held: OwnedSemaphorePermit,
    bytes: usize,
}

impl UploadRoom {
    /// The bytes this upload may hold: its whole body, or the most it may keep.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// No room came in time: the upload is answered 503 with `Retry-After`.
#[derive(Debug)]
pub struct UploadBusy;

impl UploadBusy {
    /// Seconds a client is asked to wait before sending the file again.
    pub const RETRY_AFTER: u64 = 5;

    /// Why, for the editor and the API alike.
    pub const MESSAGE: &str = "quire is receiving as many files as its memory allows right \
        now, so this one was not attached. Send it again in a few seconds (the room is \
        QUIRE_UPLOAD_MEMORY_BYTES).";
}

impl UploadBusy {
    /// The answer to a script (the editor's, the API's): 503, `Retry-After`,
    /// and why, as `{"error": ...}`.
    pub fn json(&self) -> HttpResponse {
        HttpResponse::ServiceUnavailable()
            .insert_header((header::RETRY_AFTER, Self::RETRY_AFTER))
            .json(serde_json::json!({ "error": Self::MESSAGE }))
    }

    /// A page's answer (the editor again, with the text), with `Retry-After`.
    pub fn page(&self, page: impl Into<actix_web::Error>) -> HttpResponse {
        let mut res = HttpResponse::from_error(page);
        res.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(Self::RETRY_AFTER),
        );
        res
    }
}

impl UploadBudget {
    pub fn new(bytes: usize) -> Self {
        let total_kib = u32::try_from(bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .max(1);
        Self {
            room: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
        }
    }

    /// Room for the body of `req`, before any of it is read: its announced
    /// length, at most `most` (what the handler keeps of a larger one). A body
    /// larger than the whole budget waits until it is the only one. Waits up
    /// to `UPLOAD_WAIT`.
    pub async fn reserve(&self, req: &HttpRequest, most: usize) -> Result<UploadRoom, UploadBusy> {
        let announced = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<usize>().ok());
        let bytes = announced.unwrap_or(most).min(most);
        let kib = u32::try_from(bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .clamp(1, self.total_kib);
        let acquire = self.room.clone().acquire_many_owned(kib);
        match tokio::time::timeout(UPLOAD_WAIT, acquire).await {
            Ok(Ok(held)) => Ok(UploadRoom { _held: held, bytes }),
            // The semaphore is never closed; a timeout is the only refusal.
            Ok(Err(_)) | Err(_) => {
                tracing::warn!(
                    bytes,
                    budget_kib = self.total_kib,
                    "an upload found no room within the upload memory budget \
                     (QUIRE_UPLOAD_MEMORY_BYTES) and was refused with 503"
                );
                Err(UploadBusy)
            }
        }
    }
}
