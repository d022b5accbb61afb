//! `POST /d/{id}/task`: ticking a task-list box on the document page saves it, as
//! a new revision through the same versioned save (and merge) as the editor. The
//! box is found in the text of the version the page showed, so a save made since
//! merges instead of being overwritten. The page script sends it; without
//! JavaScript the boxes stay read-only.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};

use super::AppState;
use super::form::FormData;
use super::middleware::session::CurrentUser;
use super::params::{caller, parse_id};
use crate::documents::{self, DocError, OnStale, Valid};
use crate::web::error::AppError;

fn answer(status: StatusCode, body: serde_json::Value) -> HttpResponse {
    HttpResponse::build(status).json(body)
}

fn refused(status: StatusCode, message: &str) -> HttpResponse {
    answer(status, serde_json::json!({ "error": message }))
}

pub async fn task_set(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let version = form.version()?;
    let index: usize = form
        .require("index")?
        .parse()
        .map_err(|_| AppError::BadRequest("The task number is not a number.".into()))?;
    let done = match form.require("done")? {
        "true" => true,
        "false" => false,
        _ => return Err(AppError::BadRequest("done is true or false.".into())),
    };
    let (_, shown, text) = documents::revision(&state.db, &id, version, caller(&user)).await?;
    let Some(body) = documents::set_task(&text, index, done) else {
        return Ok(refused(
            StatusCode::CONFLICT,
            "That task is no longer in the document; reload the page.",
        ));
    };
    let cap = state.config.max_doc_bytes;
    let valid = Valid::parse(&shown.title, &body, cap)?;
    let merge = OnStale::Merge { cap };
    match documents::save(&state.db, &id, version, valid, merge, caller(&user)).await {
        Ok(saved) => Ok(answer(
            StatusCode::OK,
            serde_json::json!({ "version": saved.doc.version, "merged": saved.merged_with.is_some() }),
        )),
        Err(DocError::Conflict { .. } | DocError::Stale { .. }) => Ok(refused(
            StatusCode::CONFLICT,
            "Someone changed this task since the page was loaded; reload the page.",
        )),
        Err(DocError::Forbidden) => Ok(refused(
            StatusCode::FORBIDDEN,
            "You may read this document but not change it.",
        )),
        Err(e) => Err(e.into()),
    }
}
