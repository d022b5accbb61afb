//! `GET /diagram`: the page a diagram is drawn in, inside a sandboxed frame of
//! the document page (`static/diagrams.js` sends it the diagram's text). It
//! holds no data and needs no session. Mermaid's drawings carry inline styles,
//! so this page alone allows them; it runs only quire's own scripts, and the
//! frame's sandbox (no `allow-same-origin`) keeps it from quire's cookies and
//! pages.

use actix_web::HttpResponse;
use actix_web::http::header;
use askama::Template;

use super::assets;

/// The frame page's own policy: quire's scripts, inline styles (the drawing's),
/// images only as data, framed only by quire's pages.
pub const FRAME_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; \
    img-src data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'self'";

#[derive(Template)]
#[template(path = "diagram_frame.html")]
struct Frame {
    mermaid: String,
    frame_js: String,
}

pub async fn frame() -> HttpResponse {
    let page = Frame {
        mermaid: assets::url("mermaid.min.js"),
        frame_js: assets::url("diagram-frame.js"),
    };
    match page.render() {
        Ok(html) => HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CONTENT_SECURITY_POLICY, FRAME_CSP))
            .insert_header((header::X_FRAME_OPTIONS, "SAMEORIGIN"))
            .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
            .body(html),
        Err(e) => {
            tracing::error!(error = %e, "the diagram frame did not render");
            HttpResponse::InternalServerError().finish()
        }
    }
}
