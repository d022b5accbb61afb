//! Signing in and out.

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::AppState;
use super::form::FormData;
use super::message::Message;
use super::middleware::auth::{self, SESSION_COOKIE, safe_next};
use super::respond;
use crate::accounts::{self, AccountError, Creator, User};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "login_partial.html")]
struct LoginPartial<'a> {
    username: &'a str,
    next: &'a str,
    error: Option<&'a str>,
    /// True on `/signup`: the same form creates an account.
    signup: bool,
    /// No account exists yet: say how the first one is made.
    no_accounts: bool,
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn login_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<NextQuery>,
) -> HttpResponse {
    let next = safe_next(query.next.as_deref());
    if req.extensions().get::<User>().is_some() {
        return HttpResponse::SeeOther()
            .insert_header((header::LOCATION, next))
            .finish();
    }
    respond::fragment(
        StatusCode::OK,
        "Sign in",
        &LoginPartial {
            username: "",
            next: &next,
            error: None,
            signup: false,
            no_accounts: no_accounts(&state).await,
        },
    )
}

async fn no_accounts(state: &AppState) -> bool {
    accounts::user_count(&state.db).await.is_ok_and(|n| n == 0)
}

pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let username = form.get("username").unwrap_or_default();
    let password = form.get("password").unwrap_or_default();
    let next = safe_next(form.get("next"));
    let address = super::client::address(&req, &state.config);
    let refused = |status: StatusCode, message: &str| {
        respond::fragment(
            status,
            "Sign in",
            &LoginPartial {
                username,
                next: &next,
                error: Some(message),
                signup: false,
                no_accounts: false,
            },
        )
    };
    match accounts::authenticate(&state.db, username, password, &address).await {
        Ok(user) => {
            let token = accounts::start_session(&state.db, &user)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let secure = super::client::cookies_secure(&req, &state.config);
            let mut res = HttpResponse::SeeOther()
                .insert_header((header::LOCATION, next.clone()))
                .finish();
            res.add_cookie(&auth::cookie(SESSION_COOKIE, token, secure))
                .map_err(|e| AppError::Internal(e.into()))?;
            Ok(res)
        }
        Err(e @ AccountError::WrongCredentials) => {
            Ok(refused(StatusCode::UNAUTHORIZED, &e.to_string()))
        }
        Err(e @ (AccountError::RateLimited { .. } | AccountError::Busy)) => {
            Ok(refused(StatusCode::TOO_MANY_REQUESTS, &e.to_string()))
        }
        Err(e) => Err(AppError::Internal(anyhow::anyhow!(e))),
    }
}

/// Starts a session and sends the browser on to `next`.
pub(super) async fn signed_in(
    req: &HttpRequest,
    state: &AppState,
    user: &User,
    next: &str,
) -> Result<HttpResponse, AppError> {
    let token = accounts::start_session(&state.db, user)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let secure = super::client::cookies_secure(req, &state.config);
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, next.to_owned()))
        .finish();
    res.add_cookie(&auth::cookie(SESSION_COOKIE, token, secure))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}

pub async fn signup_form(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if !state.config.signup {
        return Err(AppError::NotFound);
    }
    Ok(respond::fragment(
        StatusCode::OK,
        "Create an account",
        &LoginPartial {
            username: "",
            next: "/",
            error: None,
            signup: true,
            no_accounts: false,
        },
    ))
}

pub async fn signup(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    if !state.config.signup {
        return Err(AppError::NotFound);
    }
    let username = form.get("username").unwrap_or_default();
    let password = form.get("password").unwrap_or_default();
    match accounts::create_user_by(&state.db, Creator::SignUp, username, password, false).await {
        Ok(user) => signed_in(&req, &state, &user, "/").await,
        Err(e @ (AccountError::Invalid(_) | AccountError::Taken)) => Ok(respond::fragment(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Create an account",
            &LoginPartial {
                username,
                next: "/",
                error: Some(&e.to_string()),
                signup: true,
                no_accounts: false,
            },
        )),
        Err(e) => Err(AppError::Internal(anyhow::anyhow!(e))),
    }
}

pub async fn logout(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let user = req.extensions().get::<User>().cloned();
    if let Some(c) = req.cookie(SESSION_COOKIE) {
        accounts::end_session(&state.db, c.value(), user.as_ref())
            .await
            .map_err(|e| AppError::Internal(e.into()))?;
    }
    let mut gone = auth::cookie(SESSION_COOKIE, String::new(), false);
    gone.set_max_age(CookieDuration::ZERO);
    let mut res = HttpResponse::SeeOther()
        .insert_header((
            header::LOCATION,
            format!("/login?m={}", Message::SignedOut.code()),
        ))
        .finish();
    res.add_cookie(&gone)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}
