//! Moving a whole folder to another space (`/folders/move`), from its list
//! page: the page says how many documents move and who gains and who loses
//! access before anything moves; the move is in the audit log.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::{AppState, done, respond};
use crate::documents::{DocError, InSpace};
use crate::query_param::encoded;
use crate::teams::moves::{FolderMovePlan, move_folder};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "spaces/folder_move_partial.html")]
struct FolderMovePartial<'a> {
    folder: &'a str,
    /// The space the list was narrowed to (a parameter), empty for any.
    from: &'a str,
    /// (parameter, name) of each place it can go.
    choices: Vec<(String, String)>,
    plan: Option<FolderMovePlan>,
    to: &'a str,
    error: Option<&'a str>,
}

#[derive(Deserialize)]
pub struct FolderMoveQuery {
    folder: String,
    space: Option<String>,
    to: Option<String>,
}

async fn page(
    state: &AppState,
    user: &CurrentUser,
    (folder, from, to): (&str, &str, &str),
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let mut choices = vec![("personal".to_owned(), "Personal (only you)".to_owned())];
    for (space, name) in super::spaces::writable(state, user).await? {
        choices.push((space.to_string(), name));
    }
    let (plan, error) = match InSpace::parse(to) {
        Some(target) => {
            let planned = move_folder(
                &state.db,
                folder,
                InSpace::parse(from),
                actor(user),
                target,
                false,
            );
            match planned.await {
                Ok(plan) => (Some(plan), error.map(str::to_owned)),
                Err(DocError::Invalid(m)) => (None, Some(m)),
                Err(DocError::NotFound) => return Err(nothing_there()),
                Err(e) => return Err(e.into()),
            }
        }
        None => (None, error.map(str::to_owned)),
    };
    let status = match error {
        Some(_) if status == StatusCode::OK => StatusCode::UNPROCESSABLE_ENTITY,
        _ => status,
    };
    let partial = FolderMovePartial {
        folder,
        from,
        choices,
        plan,
        to,
        error: error.as_deref(),
    };
    Ok(respond::fragment(
        status,
        &format!("Move {folder}"),
        &partial,
    ))
}

fn nothing_there() -> AppError {
    AppError::Refused {
        status: StatusCode::NOT_FOUND,
        message: "No document you may read is in that folder.".into(),
    }
}

pub async fn folder_move_form(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<FolderMoveQuery>,
) -> Result<HttpResponse, AppError> {
    let q = query.into_inner();
    let from = q.space.unwrap_or_default();
    let to = q.to.unwrap_or_default();
    page(&state, &user, (&q.folder, &from, &to), StatusCode::OK, None).await
}

pub async fn folder_move_apply(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let folder = form.require("folder")?;
    let from = form.get("space").unwrap_or_default();
    let to = form.get("to").unwrap_or_default();
    let Some(target) = InSpace::parse(to) else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        let why = Some("Choose where to move it.");
        return page(&state, &user, (folder, from, ""), status, why).await;
    };
    match move_folder(
        &state.db,
        folder,
        InSpace::parse(from),
        actor(&user),
        target,
        true,
    )
    .await
    {
        // Nothing to move: said, not reported as a move.
        Ok(plan) if plan.moved == 0 => {
            let why = if plan.left > 0 {
                format!(
                    "Nothing was moved: you may not move the {} documents of {} there.",
                    plan.left, plan.folder
                )
            } else {
                format!(
                    "Nothing was moved: every document of {} is there already.",
                    plan.folder
                )
            };
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            page(&state, &user, (folder, from, to), status, Some(&why)).await
        }
        Ok(plan) => {
            let path = format!("/?folder={}&space={}", encoded(&plan.folder), encoded(to));
            Ok(done(&req, &path, Message::FolderMoved))
        }
        Err(DocError::Invalid(m)) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            page(&state, &user, (folder, from, ""), status, Some(&m)).await
        }
        Err(DocError::NotFound) => Err(nothing_there()),
        Err(e) => Err(e.into()),
    }
}
