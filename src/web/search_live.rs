//! `GET /search/live?q=`: the first few results under the header's search box as
//! the person types, a fragment htmx puts in the box's popup list. The full page
//! (`/search`) stays one link or one Enter away.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::AppState;
use super::middleware::session::CurrentUser;
use super::params::caller;
use super::search::HitRow;
use crate::documents;

/// As many as fit under the box without scrolling on a laptop screen.
const LIVE_RESULTS: i64 = 8;

#[derive(Deserialize)]
pub struct LiveQuery {
    #[serde(default)]
    q: String,
}

#[derive(Template)]
#[template(path = "search/live_partial.html")]
struct LivePartial {
    q: String,
    hits: Vec<HitRow>,
    failed: bool,
}

/// Always a fragment, never a page: it is only ever asked for by the box, and
/// goes around the layout so an empty search answers with an empty body (the
/// popup's `:empty` rule then hides it).
pub async fn search_live(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<LiveQuery>,
) -> HttpResponse {
    let q = query.into_inner().q;
    if q.trim().is_empty() {
        return answer(StatusCode::OK, String::new());
    }
    // The same search as the full page, so what a person may read is decided
    // in the one place it is for every search.
    let found = documents::search_as_typed(&state.db, &q, LIVE_RESULTS, caller(&user)).await;
    let partial = LivePartial {
        hits: found.hits.iter().map(HitRow::from).collect(),
        failed: found.failed,
        q,
    };
    // A failed query is a bug, as on the full page: the status says so.
    let status = if partial.failed {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::OK
    };
    match partial.render() {
        Ok(html) => answer(status, html),
        Err(e) => {
            tracing::error!(error = %e, "live results failed to render");
            answer(StatusCode::INTERNAL_SERVER_ERROR, String::new())
        }
    }
}

/// The results of one person's search: never kept by a cache.
fn answer(status: StatusCode, html: String) -> HttpResponse {
    let mut res = HttpResponse::build(status);
    res.insert_header((
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    ));
    res.insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")));
    res.body(html)
}
