//! Administration: accounts and the audit log. Admins only.

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use askama::Template;

use super::account::account_error;
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::respond;
use super::when::Stamp;
use super::{AppState, done};
use crate::accounts::audit_log::{self, Named, Who};
use crate::accounts::{self, AccountError, User, manage, people};
use crate::web::error::AppError;

/// A signed-in administrator; anyone else gets a 403.
pub struct Admin(pub User);

impl FromRequest for Admin {
    type Error = AppError;
    type Future = std::future::Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let user = CurrentUser::from_request(req, payload).into_inner();
        std::future::ready(match user {
            Ok(CurrentUser(u)) if u.is_admin => Ok(Admin(u)),
            Ok(_) => Err(AppError::Forbidden(
                "This page is for administrators.".into(),
            )),
            Err(e) => Err(e),
        })
    }
}

pub struct UserView {
    pub id: i64,
    pub username: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created: Stamp,
}

#[derive(Template)]
#[template(path = "admin/users_partial.html")]
struct UsersPartial<'a> {
    users: Vec<UserView>,
    me: i64,
    error: Option<&'a str>,
    /// Mail waiting and given up on, and the latest failed tries, when quire
    /// sends mail.
    mail: Option<(i64, i64, Vec<crate::notices::mail::Failure>)>,
}

async fn users_page(
    state: &AppState,
    admin: &Admin,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let users = manage::list_users(&state.db)
        .await
        .map_err(|e| AppError::Internal(e.into()))?
        .into_iter()
        .map(|u| UserView {
            id: u.id,
            username: u.username,
            is_admin: u.is_admin,
            disabled: u.disabled_at.is_some(),
            created: Stamp::at(u.created_at),
        })
        .collect();
    let mail = match state.config.mail.smtp_host {
        Some(_) => {
            let (waiting, failed) = crate::notices::mail::outbox(&state.db)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let tries = crate::notices::mail::failures(&state.db)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            Some((waiting, failed, tries))
        }
        None => None,
    };
    Ok(respond::fragment(
        status,
        "Users",
        &UsersPartial {
            users,
            me: admin.0.id,
            error,
            mail,
        },
    ))
}

pub async fn users_list(
    state: web::Data<AppState>,
    admin: Admin,
) -> Result<HttpResponse, AppError> {
    users_page(&state, &admin, StatusCode::OK, None).await
}

/// Refusals the admin can fix come back on the users page with the message.
async fn or_page(
    state: &AppState,
    admin: &Admin,
    result: Result<(), AccountError>,
    req: &HttpRequest,
    message: Message,
) -> Result<HttpResponse, AppError> {
    match result {
        Ok(()) => Ok(done(req, "/admin/users", message)),
        Err(AccountError::Invalid(m)) => {
            users_page(state, admin, StatusCode::UNPROCESSABLE_ENTITY, Some(&m)).await
        }
        Err(AccountError::Taken) => {
            let m = AccountError::Taken.to_string();
            users_page(state, admin, StatusCode::UNPROCESSABLE_ENTITY, Some(&m)).await
        }
        Err(e) => Err(account_error(e)),
    }
}

pub async fn user_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    admin: Admin,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let result = accounts::create_user_by(
        &state.db,
        accounts::Creator::Admin(&admin.0),
        form.require("username")?,
        form.require("password")?,
        form.get("admin") == Some("on"),
    )
    .await
    .map(|_| ());
    or_page(&state, &admin, result, &req, Message::AccountCreated).await
}

pub async fn user_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    admin: Admin,
    id: web::Path<i64>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let (result, message) = match form.require("action")? {
        "disable" => (
            manage::set_disabled(&state.db, &admin.0, id, true).await,
            Message::AccountDisabled,
        ),
        "enable" => (
            manage::set_disabled(&state.db, &admin.0, id, false).await,
            Message::AccountEnabled,
        ),
        "reset-link" => {
            return super::invitations::reset_link(&req, &state, &admin.0, id).await;
        }
        "password" => (
            manage::reset_password(&state.db, &admin.0, id, form.require("password")?).await,
            Message::PasswordReset,
        ),
        "rename" => (
            people::rename(&state.db, &admin.0, id, form.require("username")?).await,
            Message::AccountRenamed,
        ),
        "promote" => (
            people::set_admin(&state.db, &admin.0, id, true).await,
            Message::AdminGiven,
        ),
        "demote" => (
            people::set_admin(&state.db, &admin.0, id, false).await,
            Message::AdminTaken,
        ),
        "delete" => {
            if form.get("confirm") != Some("yes") {
                let ask = "Tick the box to confirm the deletion.".to_owned();
                let status = StatusCode::UNPROCESSABLE_ENTITY;
                return users_page(&state, &admin, status, Some(&ask)).await;
            }
            let heir = form
                .require("heir")?
                .parse()
                .map_err(|_| AppError::BadRequest("Choose who receives the documents.".into()))?;
            (
                people::delete(&state.db, &admin.0, id, heir).await,
                Message::AccountDeleted,
            )
        }
        other => return Err(AppError::BadRequest(format!("Unknown action {other:?}."))),
    };
    or_page(&state, &admin, result, &req, message).await
}

pub struct AuditView {
    pub when: Stamp,
    pub who: String,
    pub event: String,
    /// A sharing event's document: its title and page when the viewer may read
    /// it, else words that keep the title secret.
    pub document: Option<DocumentMention>,
    pub detail: String,
}

pub struct DocumentMention {
    pub href: Option<String>,
    pub text: String,
}

impl From<Named> for DocumentMention {
    fn from(named: Named) -> Self {
        // The first characters of an id are enough to tell entries about the
        // same document apart on one page; the whole id says nothing more.
        let short = |id: &str| id.chars().take(8).collect::<String>();
        match named {
            Named::Readable { id, title } => Self {
                href: Some(format!("/d/{id}")),
                text: title,
            },
            Named::Unreadable { id } => Self {
                href: None,
                text: format!("a document you may not read ({}…)", short(&id)),
            },
            Named::Gone { id } => Self {
                href: None,
                text: format!("a deleted document ({}…)", short(&id)),
            },
        }
    }
}

#[derive(Template)]
#[template(path = "admin/audit_partial.html")]
struct AuditPartial {
    rows: Vec<AuditView>,
}

pub async fn audit_list(
    state: web::Data<AppState>,
    admin: Admin,
) -> Result<HttpResponse, AppError> {
    let rows = audit_log::recent(&state.db, &admin.0, 500)
        .await
        .map_err(|e| AppError::Internal(e.into()))?
        .into_iter()
        .map(|e| AuditView {
            when: Stamp::at(e.at),
            who: match e.who {
                Who::Person(name) => name,
                Who::Quire => "quire (command line)".into(),
                Who::Unknown => "—".into(),
            },
            event: e.event,
            document: e.document.map(DocumentMention::from),
            detail: e.detail,
        })
        .collect();
    Ok(respond::fragment(
        StatusCode::OK,
        "Audit log",
        &AuditPartial { rows },
    ))
}
