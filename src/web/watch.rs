//! Watching: a document, or a space or a folder of it. Each has a small form
//! (loaded into its page by htmx, or its own page without JavaScript) that
//! shows whether the person watches it and turns that on or off.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::error::AppError;
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{actor, caller, parse_id};
use super::{AppState, done, respond};
use crate::documents;

#[derive(Template)]
#[template(path = "notices/watch_partial.html")]
struct WatchPartial {
    /// Where the form posts.
    action: String,
    /// What is watched, in words.
    what: String,
    watching: bool,
    /// Hidden fields the form carries (space, folder).
    fields: Vec<(&'static str, String)>,
}

pub async fn document_watch_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let doc = documents::get(&state.db, &id, caller(&user)).await?;
    let watching = crate::notices::watches_document(&state.db, actor(&user), doc.seq).await?;
    let partial = WatchPartial {
        action: format!("/d/{id}/watch"),
        what: format!("“{}”", doc.title),
        watching,
        fields: Vec::new(),
    };
    Ok(respond::fragment(StatusCode::OK, "Watch", &partial))
}

fn turned_on(form: &FormData) -> bool {
    form.get("watch") == Some("on")
}

fn said(on: bool) -> Message {
    if on {
        Message::Watching
    } else {
        Message::NotWatching
    }
}

pub async fn document_watch_set(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let on = turned_on(&form);
    crate::notices::watch_document(&state.db, actor(&user), &id, on).await?;
    Ok(done(&req, &format!("/d/{id}"), said(on)))
}

#[derive(Deserialize)]
pub struct PlaceQuery {
    space: i64,
    #[serde(default)]
    folder: String,
}

pub async fn place_watch_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PlaceQuery>,
) -> Result<HttpResponse, AppError> {
    let q = query.into_inner();
    let folder = documents::place::folder_path(&q.folder)?;
    let spaces = crate::teams::spaces::names(&state.db, user.0.id).await?;
    let Some((_, name)) = spaces.into_iter().find(|(id, _)| *id == q.space) else {
        return Err(AppError::NotFound);
    };
    let watching = crate::notices::watches_place(&state.db, actor(&user), q.space, &folder).await?;
    let what = if folder.is_empty() {
        format!("the space {name}")
    } else {
        format!("the folder {folder} in {name}")
    };
    let partial = WatchPartial {
        action: "/watch".to_owned(),
        what,
        watching,
        fields: vec![("space", q.space.to_string()), ("folder", folder)],
    };
    Ok(respond::fragment(StatusCode::OK, "Watch", &partial))
}

pub async fn place_watch_set(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let space: i64 = form
        .get("space")
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| AppError::BadRequest("Name a space by its number.".into()))?;
    let folder = form.get("folder").unwrap_or_default();
    let on = turned_on(&form);
    crate::notices::watch_place(&state.db, actor(&user), space, folder, on).await?;
    let folder = documents::place::folder_path(folder)?;
    let mut back = format!("/?space={space}");
    if !folder.is_empty() {
        back.push_str(&format!("&folder={}", crate::query_param::encoded(&folder)));
    }
    Ok(done(&req, &back, said(on)))
}
