//! Renaming a folder from its list page: a plain form (CSRF-checked like every
//! form), answered with the list of the folder under its new name.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::caller;
use super::{AppState, done};
use crate::documents::{self, DocError};
use crate::web::error::AppError;

pub async fn folder_rename(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let (from, to) = (form.require("from")?, form.require("to")?);
    match documents::rename_folder(&state.db, from, to, caller(&user)).await {
        Ok(renamed) => {
            let path = match renamed.to.as_str() {
                "" => "/".to_owned(),
                to => format!("/?folder={}", crate::query_param::encoded(to)),
            };
            Ok(done(&req, &path, Message::FolderRenamed))
        }
        Err(DocError::NotFound) => Err(AppError::Refused {
            status: StatusCode::NOT_FOUND,
            message: "No document you may edit is in that folder, so nothing was moved.".into(),
        }),
        Err(e) => Err(e.into()),
    }
}
