//! `POST /selection`: the list's "With the chosen documents" form. The chosen
//! documents come as `pick.{id}` fields (checkboxes in each row); the action is
//! moving them to a folder, adding tags or the trash. All taken: back to the list
//! with a message; some refused: a page naming each (its title only when the
//! reader may read it) and why.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::{AppState, done, respond};
use crate::documents::DocId;
use crate::documents::selection::{self, Change, MAX_CHOSEN};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "documents/selection_partial.html")]
struct Refusals {
    changed: usize,
    refused: Vec<(String, String)>,
    back: String,
}

pub async fn apply(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let back = super::middleware::auth::safe_next(form.get("back"))
        .trim_end_matches(['&', '?'])
        .to_owned();
    let chosen: Vec<DocId> = form
        .iter()
        .filter_map(|(name, _)| name.strip_prefix("pick."))
        .filter_map(DocId::parse)
        .take(MAX_CHOSEN)
        .collect();
    if chosen.is_empty() {
        return Ok(respond::message(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Nothing chosen",
            "Tick the documents to change in the list first.",
        ));
    }
    let change = Change::parse(
        form.get("action").unwrap_or_default(),
        form.get("folder").unwrap_or_default(),
        form.get("tags").unwrap_or_default(),
    )?;
    let outcome = selection::apply(
        &state.db,
        &chosen,
        &change,
        state.config.max_doc_bytes,
        actor(&user),
    )
    .await;
    if outcome.refused.is_empty() {
        let message = match change {
            Change::Move(_) => Message::ChosenMoved,
            Change::Tag(_) => Message::ChosenTagged,
            Change::Trash => Message::ChosenTrashed,
        };
        return Ok(done(&req, &back, message));
    }
    for (_, e) in &outcome.refused {
        if let crate::documents::DocError::Internal(e) = e {
            tracing::error!(error = %e, "changing a chosen document failed");
        }
    }
    let page = Refusals {
        changed: outcome.changed,
        refused: outcome
            .refused
            .into_iter()
            .map(|(name, e)| (name, e.to_string()))
            .collect(),
        back,
    };
    Ok(respond::fragment(StatusCode::OK, "Not all changed", &page))
}
