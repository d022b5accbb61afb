//! Who is editing now: the editor's and the page's polled notes (htmx), and
//! the editor's "merge their changes into yours", which merges what others
//! saved into the text being edited without saving it.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use super::editor::{EditForm, EditPartial};
use super::error::AppError;
use super::form::FormData;
use super::middleware::session::CurrentUser;
use super::params::{actor, caller, parse_id};
use super::{AppState, respond};
use crate::documents;
use crate::notices::presence::{self, Editing};

#[derive(Template)]
#[template(path = "notices/editing_partial.html")]
struct EditingPartial {
    id: String,
    /// For an editor: it may merge what was saved since.
    editor: bool,
    editing: Editing,
}

async fn answer(
    state: &AppState,
    user: &CurrentUser,
    id: &str,
    base: Option<i64>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(id)?;
    let editing = presence::editing(&state.db, actor(user), &id, base).await?;
    let partial = EditingPartial {
        id: id.to_string(),
        editor: base.is_some(),
        editing,
    };
    Ok(respond::fragment(StatusCode::OK, "Editing now", &partial))
}

/// A document's page: who has it open in an editor.
pub async fn editing_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    answer(&state, &user, &id, None).await
}

/// An open editor says it is there (with the version it started from) and
/// learns who else edits and whether someone saved since.
pub async fn editing_here(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let base = form
        .get("version")
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
        .ok_or_else(|| AppError::BadRequest("Say which version the editor started from.".into()))?;
    answer(&state, &user, &id, Some(base)).await
}

/// The editor's text with what others saved since its version merged in,
/// back in the editor, unsaved; overlapping changes show the merge page.
pub async fn catch_up(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let cap = state.config.max_doc_bytes;
    let mine = EditForm::sent(&form, Some(&id), cap)?;
    let valid = match mine.valid() {
        Ok(valid) => valid,
        Err(e) => return Err(AppError::from_doc(e, mine)),
    };
    let base = mine.version;
    match documents::catch_up(&state.db, &id, base, valid, cap, caller(&user)).await {
        Ok((merged, version)) => {
            let notice = format!(
                "Their changes since version {base} are merged into your text, now based on \
                 version {version}. Nothing is saved yet: save when you are ready."
            );
            let form = EditForm {
                title: merged.title().to_owned(),
                body: merged.body().to_owned(),
                version,
                ..mine
            };
            Ok(EditPartial::of(&form).notice(&notice).page(StatusCode::OK))
        }
        Err(e) => Err(AppError::from_doc(e, mine)),
    }
}
