//! The one place a page gets its layout. Handlers answer with a partial; a normal
//! request gets it inside the layout, an htmx request that targets an element gets
//! the partial alone (with a `<title>` htmx moves into the head).

use actix_web::HttpMessage;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::middleware::Next;
use askama::Template;

use super::auth::CsrfToken;
use crate::accounts::User;
use crate::web::assets;
use crate::web::message::Message;
use crate::web::respond::Fragment;

/// The page up to where the content goes; `END` follows the content.
#[derive(Template)]
#[template(path = "layout_top.html")]
struct Layout<'a> {
    title: &'a str,
    user: Option<String>,
    is_admin: bool,
    /// Unread notices in the person's inbox.
    unread: i64,
    flash: Option<&'static str>,
    css: String,
    icon: String,
    writing_js: String,
    search_js: String,
    attach_js: String,
    talk_js: String,
    diagrams_js: String,
    js: String,
    htmx: String,
}

/// The page after the content: nothing in it changes from page to page.
const END: &str = concat!("\n", include_str!("../../../templates/layout_end.html"));

/// What an htmx request gets before the partial: the title, and for a
/// signed-in person the inbox's counts, swapped into the header out of band.
#[derive(Template)]
#[template(
    source = "<title>{{ title }} · quire</title>{% if signed_in %}{% let oob = true %}{% for place in [\"wide\", \"phone\"] %}{% include \"inbox_count.html\" %}{% endfor %}{% endif %}",
    ext = "html"
)]
struct PartialOnly<'a> {
    title: &'a str,
    signed_in: bool,
    unread: i64,
}

/// True for an htmx request that swaps a target: it wants the partial only.
/// Boosted requests into `<body>` and history restores want the whole page.
pub fn wants_partial(headers: &HeaderMap) -> bool {
    let has = |name: &str| headers.get(name).is_some_and(|v| !v.is_empty());
    has("hx-request") && has("hx-target") && !has("hx-history-restore-request")
}

pub async fn wrap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let partial = wants_partial(req.headers());
    // The message a redirect named for this page (`?m=code`).
    let flash = Message::from_query(req.query_string()).map(Message::text);
    let mut res = next.call(req).await?;
    let fragment = res.response_mut().extensions_mut().remove::<Fragment>();
    let Some(Fragment { title, html }) = fragment else {
        return Ok(res.map_into_boxed_body());
    };
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::VARY,
        HeaderValue::from_static("HX-Request, HX-Target"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));

    let token = res
        .request()
        .extensions()
        .get::<CsrfToken>()
        .map(|t| t.0.clone())
        .unwrap_or_default();
    // The content goes in as the bytes it is: a page from the cache is never
    // copied into a `String` (or checked again as UTF-8) on its way out.
    let top = crate::web::csrf::render_with(token, || {
        let user = res.request().extensions().get::<User>().cloned();
        if partial {
            PartialOnly {
                title: &title,
                signed_in: user.is_some(),
                unread: user.map_or(0, |u| u.unread),
            }
            .render()
        } else {
            Layout {
                title: &title,
                is_admin: user.as_ref().is_some_and(|u| u.is_admin),
                unread: user.as_ref().map_or(0, |u| u.unread),
                user: user.map(|u| u.username),
                flash,
                css: assets::url("style.css"),
                js: assets::url("quire.js"),
                writing_js: assets::url("writing.js"),
                search_js: assets::url("search.js"),
                attach_js: assets::url("attach.js"),
                talk_js: assets::url("talk.js"),
                diagrams_js: assets::url("diagrams.js"),
                htmx: assets::url("htmx.min.js"),
                icon: assets::url("favicon.svg"),
            }
            .render()
        }
    })
    .map_err(actix_web::error::ErrorInternalServerError)?;
    let end = if partial { "" } else { END };
    let mut body = Vec::with_capacity(top.len() + html.len() + end.len());
    body.extend_from_slice(top.as_bytes());
    body.extend_from_slice(&html);
    body.extend_from_slice(end.as_bytes());
    Ok(res.map_body(|_, _| BoxBody::new(body)))
}
