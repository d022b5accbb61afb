//! Moving a document to another space (`/d/{id}/move`): the page says who
//! gains and who loses access before anything moves; the move is in the audit log.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{actor, caller, parse_id};
use super::{AppState, done, respond};
use crate::documents::{self, DocError, InSpace};
use crate::teams::moves::{MovePlan, move_document};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "spaces/move_partial.html")]
struct MovePartial<'a> {
    id: String,
    title: String,
    /// (parameter, name) of each place it can go.
    choices: Vec<(String, String)>,
    plan: Option<MovePlan>,
    to: String,
    error: Option<&'a str>,
}

#[derive(Deserialize)]
pub struct MoveQuery {
    to: Option<String>,
}

async fn move_page(
    state: &AppState,
    user: &CurrentUser,
    raw_id: &str,
    to: Option<&str>,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(raw_id)?;
    let doc = documents::get(&state.db, &id, caller(user)).await?;
    let mut choices = Vec::new();
    if doc.owner_id == Some(user.0.id) {
        choices.push(("personal".to_owned(), "Personal (only you)".to_owned()));
    }
    for (space, name) in super::spaces::writable(state, user).await? {
        choices.push((space.to_string(), name));
    }
    let target = to.and_then(InSpace::parse);
    let (plan, error) = match target {
        Some(t) => match move_document(&state.db, &id, actor(user), t, false).await {
            Ok(plan) => (Some(plan), error.map(str::to_owned)),
            Err(DocError::Invalid(m)) => (None, Some(m)),
            Err(DocError::Forbidden) => return Err(forbidden()),
            Err(e) => return Err(e.into()),
        },
        None => (None, error.map(str::to_owned)),
    };
    let status = if error.is_some() && status == StatusCode::OK {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        status
    };
    let page = MovePartial {
        id: doc.id.clone(),
        title: doc.title.clone(),
        choices,
        plan,
        to: to.unwrap_or_default().to_owned(),
        error: error.as_deref(),
    };
    Ok(respond::fragment(
        status,
        &format!("Move {}", doc.title),
        &page,
    ))
}

fn forbidden() -> AppError {
    AppError::Forbidden(
        "Only its owner or a manager of its space can move a document out of the space.".into(),
    )
}

pub async fn move_form(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<MoveQuery>,
) -> Result<HttpResponse, AppError> {
    move_page(
        &state,
        &user,
        &id,
        query.to.as_deref(),
        StatusCode::OK,
        None,
    )
    .await
}

pub async fn move_apply(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    raw: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&raw)?;
    let to = form.require("to")?;
    let Some(target) = InSpace::parse(to) else {
        return move_page(
            &state,
            &user,
            &raw,
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("Choose where to move it."),
        )
        .await;
    };
    match move_document(&state.db, &id, actor(&user), target, true).await {
        Ok(_) => Ok(done(
            &req,
            &format!("/d/{}", id.as_str()),
            Message::DocumentMoved,
        )),
        Err(DocError::Invalid(m)) => {
            move_page(
                &state,
                &user,
                &raw,
                None,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(&m),
            )
            .await
        }
        Err(DocError::Forbidden) => Err(forbidden()),
        Err(e) => Err(e.into()),
    }
}
