//! The Atom feed of recent changes, opened by a person's feed token, and the
//! account page's forms that make and revoke that token.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::account::{ShownOnce, settings};
use super::error::AppError;
use super::inbox::ChangesQuery;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::when::iso_time;
use super::{AppState, done};
use crate::notices::feeds;

struct Entry {
    id: String,
    title: String,
    link: String,
    updated: String,
    author: String,
    summary: String,
}

#[derive(Template)]
#[template(path = "notices/feed.xml")]
struct FeedXml {
    title: String,
    /// The page the feed follows.
    page: String,
    updated: String,
    entries: Vec<Entry>,
}

pub async fn feed_show(
    req: HttpRequest,
    state: web::Data<AppState>,
    token: web::Path<String>,
    query: web::Query<ChangesQuery>,
) -> Result<HttpResponse, AppError> {
    let q = query.into_inner();
    let scope = q.scope()?;
    let Some(feed) = feeds::feed(&state.db, token.trim_end_matches(".atom"), &scope).await? else {
        return Err(AppError::NotFound);
    };
    let base = super::client::public_base(&req, &state.config);
    let entries = feed
        .lines
        .iter()
        .map(|l| {
            let author = l.author.clone().unwrap_or_else(|| "quire".to_owned());
            let what = match (l.first_rev, l.saves) {
                (1, 1) => "created".to_owned(),
                (_, 1) => "edited".to_owned(),
                (_, n) => format!("edited ({n} saves)"),
            };
            Entry {
                id: format!("{base}/d/{}/r/{}-{}", l.doc_id, l.first_rev, l.last_rev),
                title: format!("{}: {what} by {author}", l.title),
                link: format!("{base}{}", l.link()),
                updated: iso_time(l.newest),
                summary: format!("+{} −{} lines, revision {}", l.added, l.removed, l.last_rev),
                author,
            }
        })
        .collect::<Vec<_>>();
    let updated = iso_time(feed.lines.first().map_or(0, |l| l.newest));
    let xml = FeedXml {
        title: format!("Recent changes in quire for {}", feed.reader),
        page: format!("{base}/changes?{}", q.query()),
        updated,
        entries,
    };
    let body = xml
        .render()
        .map_err(|e| AppError::Internal(anyhow::anyhow!(e)))?;
    Ok(HttpResponse::build(StatusCode::OK)
        .insert_header((header::CONTENT_TYPE, "application/atom+xml; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body))
}

/// A new feed address (the old one stops working), shown once.
pub async fn feed_make(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    let token = feeds::make_token(&state.db, actor(&user)).await?;
    let base = super::client::public_base(&req, &state.config);
    let once = ShownOnce {
        token: None,
        feed: Some(format!("{base}/feeds/{token}")),
    };
    settings(&state, &user, StatusCode::OK, None, once).await
}

pub async fn feed_revoke(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    feeds::revoke(&state.db, actor(&user)).await?;
    Ok(done(&req, "/account", Message::FeedRevoked))
}
