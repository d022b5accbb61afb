//! The signed-in user's own settings: name, notices, password and API tokens.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::form::FormData;
use super::message::Message;
use super::middleware::auth::SESSION_COOKIE;
use super::middleware::session::CurrentUser;
use super::respond;
use super::when::Stamp;
use super::{AppState, done};
use crate::accounts::{AccountError, manage, people, single_sign_on, tokens};
use crate::web::error::AppError;

pub struct TokenView {
    pub id: i64,
    pub name: String,
    pub created: Stamp,
    pub last_used: Option<Stamp>,
}

#[derive(Template)]
#[template(path = "account/settings_partial.html")]
struct SettingsPartial<'a> {
    username: &'a str,
    tokens: Vec<TokenView>,
    error: Option<&'a str>,
    new_token: Option<&'a str>,
    /// The address of the person's new feed, shown once.
    new_feed: Option<String>,
    /// They have a feed address (its token is not kept in clear).
    has_feed: bool,
    /// What the files attached to the user's documents take, each content once.
    files_size: String,
    /// How single sign-on knows the user, if it does.
    known_as: Vec<String>,
    /// The OpenID Connect provider's name, when its sign-in can be linked here
    /// (one is set, and this account is not linked to it yet).
    link_to: Option<&'a str>,
    /// They watch what they create, edit or are mentioned in.
    watch_own: bool,
    /// Where and how often their notices are mailed, when quire sends mail.
    mail: Option<(String, String)>,
}

pub fn account_error(e: AccountError) -> AppError {
    if let Some(what) = e.unwritable() {
        return AppError::Unavailable(what);
    }
    match e {
        AccountError::Db(e) => AppError::Internal(e.into()),
        AccountError::Hash(e) => AppError::Internal(anyhow::anyhow!(e)),
        other => AppError::BadRequest(other.to_string()),
    }
}

/// What the account page shows once, on the answer that made it.
#[derive(Default)]
pub struct ShownOnce<'a> {
    /// A new API token.
    pub token: Option<&'a str>,
    /// The address of a new feed.
    pub feed: Option<String>,
}

pub(super) async fn settings(
    state: &AppState,
    user: &CurrentUser,
    status: StatusCode,
    error: Option<&str>,
    once: ShownOnce<'_>,
) -> Result<HttpResponse, AppError> {
    let rows = tokens::list(&state.db, &user.0)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let files = crate::documents::attachments::owner_total(&state.db, user.0.id).await?;
    let known_as = single_sign_on::known_as(&state.db, user.0.id)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let link_to = match &state.oidc {
        Some(p) => {
            let linked = single_sign_on::is_linked(&state.db, user.0.id, &p.settings.issuer)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            (!linked).then_some(p.settings.name.as_str())
        }
        None => None,
    };
    let watch_own = crate::notices::watch_own(&state.db, super::params::actor(user)).await?;
    let has_feed = crate::notices::feeds::has_token(&state.db, super::params::actor(user)).await?;
    let mail = match state.config.mail.smtp_host {
        Some(_) => {
            let (email, every) =
                crate::notices::mail_settings(&state.db, super::params::actor(user)).await?;
            Some((email.unwrap_or_default(), every))
        }
        None => None,
    };
    let tokens = rows
        .into_iter()
        .map(|t| TokenView {
            id: t.id,
            name: t.name,
            created: Stamp::at(t.created_at),
            last_used: t.last_used_at.map(Stamp::at),
        })
        .collect();
    Ok(respond::fragment(
        status,
        "Your account",
        &SettingsPartial {
            username: &user.0.username,
            tokens,
            error,
            new_token: once.token,
            new_feed: once.feed,
            has_feed,
            files_size: crate::documents::human_size(usize::try_from(files).unwrap_or(0)),
            known_as,
            link_to,
            watch_own,
            mail,
        },
    ))
}

pub async fn account_show(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    settings(&state, &user, StatusCode::OK, None, ShownOnce::default()).await
}

/// Whether the person watches what they create, edit or are mentioned in.
pub async fn notices_save(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let on = form.get("watch_own") == Some("on");
    crate::notices::set_watch_own(&state.db, super::params::actor(&user), on).await?;
    Ok(done(&req, "/account", Message::NoticesSaved))
}

pub async fn password_change(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let session = req
        .cookie(SESSION_COOKIE)
        .map(|c| c.value().to_owned())
        .unwrap_or_default();
    let result = manage::change_password(
        &state.db,
        &user.0,
        form.require("current")?,
        form.require("new")?,
        &session,
    )
    .await;
    match result {
        Ok(()) => Ok(done(&req, "/account", Message::PasswordChanged)),
        Err(e) => refused(&state, &user, e).await,
    }
}

/// The user's own new user name.
pub async fn name_change(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    match people::rename_self(&state.db, &user.0, form.require("name")?).await {
        Ok(()) => Ok(done(&req, "/account", Message::AccountRenamed)),
        Err(AccountError::Taken) => {
            let msg = AccountError::Taken.to_string();
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            settings(&state, &user, status, Some(&msg), ShownOnce::default()).await
        }
        Err(e) => refused(&state, &user, e).await,
    }
}

/// A refusal the user can fix comes back on the settings page; others are errors.
async fn refused(
    state: &AppState,
    user: &CurrentUser,
    e: AccountError,
) -> Result<HttpResponse, AppError> {
    match e {
        AccountError::Invalid(msg) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            settings(state, user, status, Some(&msg), ShownOnce::default()).await
        }
        e => Err(account_error(e)),
    }
}

pub async fn token_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    match tokens::create(&state.db, &user.0, form.require("name")?).await {
        // Shown once, on this response only; never stored in clear.
        Ok(token) => {
            let once = ShownOnce {
                token: Some(&token),
                feed: None,
            };
            settings(&state, &user, StatusCode::OK, None, once).await
        }
        Err(e) => refused(&state, &user, e).await,
    }
}

pub async fn token_revoke(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    if !tokens::revoke(&state.db, &user.0, *id)
        .await
        .map_err(|e| AppError::Internal(e.into()))?
    {
        return Err(AppError::NotFound);
    }
    Ok(done(&req, "/account", Message::TokenRevoked))
}
