//! Every request gets an id (the client's `X-Request-Id` when it is a sensible
//! one, else a fresh one) sent back on the response, a log span carrying it, one
//! log line when it is answered, and a place in the request metrics.
//!
//! The span holds the route pattern, never the path or query: those can carry a
//! search or other words a user typed.

use std::borrow::Cow;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::InternalError;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, web};
use tracing::Instrument;

use crate::metrics::{HttpMetrics, method_label};

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// This request's id, for handlers that want to mention it.
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// 1–64 characters of `[A-Za-z0-9._-]`: safe to echo in a header and a log.
pub fn valid_request_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// 16 random hex digits.
pub fn new_request_id() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // Ids only need to tell requests apart in the logs; the clock will do.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        bytes = nanos.to_be_bytes();
    }
    crate::transfer::hex(&bytes)
}

/// The pattern of the route that answers `req`, as the logs and metrics name
/// it. The document page's is known from the path alone: finding any other
/// walks the routes, matching each dynamic one's pattern (a regular
/// expression), which perf put at 3 % of a cached page view.
fn route_of(req: &ServiceRequest) -> Cow<'static, str> {
    match req.path().strip_prefix("/d/") {
        Some(id) if !id.is_empty() && !id.contains('/') => Cow::Borrowed(DOCUMENT),
        _ => Cow::Owned(
            req.match_pattern()
                .unwrap_or_else(|| "unmatched".to_owned()),
        ),
    }
}

/// The document page's route (`crate::app` declares it first).
const DOCUMENT: &str = "/d/{id}";

pub async fn wrap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| valid_request_id(v))
        .map_or_else(new_request_id, str::to_owned);
    let route = route_of(&req);
    let method = method_label(req.method());
    let metrics = req.app_data::<web::Data<HttpMetrics>>().cloned();
    let client = req
        .app_data::<web::Data<crate::web::AppState>>()
        .map(|s| crate::web::client::address(req.request(), &s.config))
        .unwrap_or_default();
    req.extensions_mut().insert(RequestId(id.clone()));
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method,
        route = %route,
        client = %client,
        status = tracing::field::Empty,
        elapsed_ms = tracing::field::Empty,
    );

    let outcome = next.call(req).instrument(span.clone()).await;
    let took = started.elapsed();
    let header = HeaderValue::from_str(&id).ok();
    let (status, outcome) = match outcome {
        Ok(mut res) => {
            if let Some(h) = header {
                res.headers_mut().insert(REQUEST_ID, h);
            }
            (res.status(), Ok(res))
        }
        // An error from a middleware has no response yet: make it here, so it
        // carries the id and its status is counted.
        Err(err) => {
            let mut res = err.error_response();
            if let Some(h) = header {
                res.headers_mut().insert(REQUEST_ID, h);
            }
            let status = res.status();
            (status, Err(InternalError::from_response(err, res).into()))
        }
    };
    if let Some(m) = metrics {
        m.record(&route, method, status.as_u16(), took);
    }
    span.record("status", status.as_u16());
    span.record("elapsed_ms", took.as_micros() as f64 / 1000.0);
    span.in_scope(|| tracing::info!("request completed"));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_short_and_plain() {
        assert!(valid_request_id("abc-123_X.y"));
        assert!(valid_request_id(&"a".repeat(64)));
        assert!(!valid_request_id(""));
        assert!(!valid_request_id(&"a".repeat(65)));
        assert!(!valid_request_id("has space"));
        assert!(!valid_request_id("quote\"d"));
    }

    /// The document page's route known from its path is the one the routes
    /// find, and every other path is still found by the routes.
    #[actix_web::test]
    async fn the_route_named_is_the_route_that_answers() {
        use actix_web::middleware::{Next, from_fn};
        use actix_web::{App, HttpResponse, test};

        async fn both(
            req: ServiceRequest,
            _: Next<impl MessageBody>,
        ) -> Result<ServiceResponse, actix_web::Error> {
            let named = format!("{} {:?}", route_of(&req), req.match_pattern());
            Ok(req.into_response(HttpResponse::Ok().body(named)))
        }
        let app = test::init_service(App::new().wrap(from_fn(both)).configure(crate::app)).await;
        let cases = [
            ("/d/2243bticf3yw3use2nf2bnetxm", "/d/{id}"),
            ("/d/a%2Fb", "/d/{id}"),
            ("/d/x/edit", "/d/{id}/edit"),
            ("/d/x/files/a/b.png", "/d/{id}/files/{name:.+}"),
            ("/d", "/d"),
            ("/", "/"),
        ];
        for (path, route) in cases {
            for method in [actix_web::http::Method::GET, actix_web::http::Method::POST] {
                let req = test::TestRequest::default()
                    .method(method)
                    .uri(path)
                    .to_request();
                let body = test::call_and_read_body(&app, req).await;
                let body = String::from_utf8_lossy(&body);
                assert_eq!(body, format!("{route} Some({route:?})"), "{path}");
            }
        }
        let req = test::TestRequest::get().uri("/no/such/place").to_request();
        let body = test::call_and_read_body(&app, req).await;
        assert_eq!(String::from_utf8_lossy(&body), "unmatched None");
    }

    #[test]
    fn new_ids_are_16_hex_digits_and_differ() {
        let a = new_request_id();
        assert_eq!(a.len(), 16);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, new_request_id());
    }
}
