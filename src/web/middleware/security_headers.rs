//! Middleware: the security headers every response carries (the content
//! security policy, no sniffing, no framing, same-origin referrers).

use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::DefaultHeaders;

/// Scripts and styles only from quire itself; images from anywhere over HTTPS.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data: https:; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .add((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .add((
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .add((header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
}
