//! Mail settings on the account page, and the unsubscribe link every mail
//! carries: a page with a button, and the one-click POST mail programs send
//! (RFC 8058), which needs no session: the link's key names the person.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::error::AppError;
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::{AppState, done, respond};

pub async fn mail_save(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let email = form.get("email").unwrap_or_default();
    let every = form.require("every")?;
    crate::notices::set_mail(&state.db, actor(&user), email, every).await?;
    Ok(done(&req, "/account", Message::MailSaved))
}

#[derive(Template)]
#[template(path = "notices/unsubscribe_partial.html")]
struct UnsubscribePartial {
    key: String,
    email: String,
    on: bool,
    done: bool,
}

pub async fn unsubscribe_show(
    state: web::Data<AppState>,
    key: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let Some((email, on)) = crate::notices::unsubscribing(&state.db, &key).await? else {
        return Err(AppError::NotFound);
    };
    let partial = UnsubscribePartial {
        key: key.into_inner(),
        email,
        on,
        done: false,
    };
    Ok(respond::fragment(StatusCode::OK, "Stop mail", &partial))
}

/// Stops mail for the link's person: from the page's button, or from a mail
/// program's one-click request.
pub async fn unsubscribe_apply(
    state: web::Data<AppState>,
    key: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let Some((email, _)) = crate::notices::unsubscribing(&state.db, &key).await? else {
        return Err(AppError::NotFound);
    };
    crate::notices::unsubscribe(&state.db, &key).await?;
    let partial = UnsubscribePartial {
        key: key.into_inner(),
        email,
        on: false,
        done: true,
    };
    Ok(respond::fragment(StatusCode::OK, "Mail stopped", &partial))
}
