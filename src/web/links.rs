//! `GET /go?to=TARGET`: where a link between documents leads when the page
//! that holds it did not say (a revision, a preview, the API's HTML): the
//! document of that title (or folder and title) the user may read, else the
//! editor with the title filled in. Only ever a redirect within quire.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use super::AppState;
use super::error::AppError;
use super::middleware::session::CurrentUser;
use super::params::actor;
use crate::documents;
use crate::query_param::encoded;

#[derive(Deserialize)]
pub struct GoQuery {
    #[serde(default)]
    to: String,
}

pub async fn follow_link(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<GoQuery>,
) -> Result<HttpResponse, AppError> {
    let target: String = query.to.chars().take(401).collect();
    let to = match documents::links::follow(&state.db, &target, actor(&user)).await? {
        Some(id) => format!("/d/{id}"),
        None if target.trim().is_empty() => "/".to_owned(),
        None => format!("/new?title={}", encoded(target.trim())),
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to))
        .finish())
}

#[derive(Deserialize)]
pub struct TitlesQuery {
    #[serde(default)]
    q: String,
    /// The linking document's space (`personal` or a number): its titles first.
    #[serde(default)]
    space: String,
}

#[derive(askama::Template)]
#[template(path = "documents/link_suggestions.html")]
struct Suggestions {
    found: Vec<(String, String, String)>,
}

/// `GET /titles?q=`: the editor's offer while a link is typed (`[[gar`), the
/// documents the user may read whose title holds what follows the brackets,
/// those in the linking document's space (`&space=`) first.
pub async fn link_suggestions(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<TitlesQuery>,
) -> Result<HttpResponse, AppError> {
    let space = documents::InSpace::parse(&query.space);
    let found = documents::links::suggest(&state.db, &query.q, actor(&user), space).await?;
    Ok(super::respond::fragment(
        actix_web::http::StatusCode::OK,
        "Documents to link",
        &Suggestions { found },
    ))
}
