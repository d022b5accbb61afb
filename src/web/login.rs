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
    /// The password form is shown (local passwords are allowed).
    passwords: bool,
    /// The OpenID Connect provider's name, for its button, when one is set.
    provider: Option<&'a str>,
}

impl<'a> LoginPartial<'a> {
    fn new(state: &'a AppState, next: &'a str, error: Option<&'a str>) -> Self {
        Self {
            username: "",
            next,
            error,
            signup: false,
            no_accounts: false,
            passwords: state.config.sign_in.password_sign_in,
            provider: state.oidc.as_ref().map(|p| p.settings.name.as_str()),
        }
    }
}

/// The sign-in page with `error` shown (single sign-on's refusals use it: the
/// provider's button starts again).
pub(super) fn sign_in_page(
    state: &AppState,
    status: StatusCode,
    next: &str,
    error: Option<&str>,
) -> HttpResponse {
    respond::fragment(status, "Sign in", &LoginPartial::new(state, next, error))
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
    let page = LoginPartial {
        no_accounts: no_accounts(&state).await,
        ..LoginPartial::new(&state, &next, None)
    };
    respond::fragment(StatusCode::OK, "Sign in", &page)
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
        let page = LoginPartial {
            username,
            ..LoginPartial::new(&state, &next, Some(message))
        };
        respond::fragment(status, "Sign in", &page)
    };
    if !state.config.sign_in.password_sign_in {
        let message = "Password sign-in is off here: use the single sign-on button.";
        return Ok(refused(StatusCode::FORBIDDEN, message));
    }
    match accounts::authenticate(&state.db, username, password, &address).await {
        Ok(user) => signed_in(&req, &state, &user, &next).await,
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
    with_session(req, state, token, next)
}

/// `signed_in` with a session that ends `life_ms` after it starts at the latest.
pub(super) async fn signed_in_lasting(
    req: &HttpRequest,
    state: &AppState,
    user: &User,
    next: &str,
    life_ms: i64,
) -> Result<HttpResponse, AppError> {
    let token = accounts::start_session_lasting(&state.db, user, life_ms)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    with_session(req, state, token, next)
}

fn with_session(
    req: &HttpRequest,
    state: &AppState,
    token: String,
    next: &str,
) -> Result<HttpResponse, AppError> {
    let secure = super::client::cookies_secure(req, &state.config);
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, next.to_owned()))
        .finish();
    res.add_cookie(&auth::cookie(SESSION_COOKIE, token, secure))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}

/// Whether `/signup` makes accounts: asked for, and passwords allowed.
fn signup_open(state: &AppState) -> bool {
    state.config.signup && state.config.sign_in.password_sign_in
}

pub async fn signup_form(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if !signup_open(&state) {
        return Err(AppError::NotFound);
    }
    Ok(respond::fragment(
        StatusCode::OK,
        "Create an account",
        &LoginPartial {
            signup: true,
            ..LoginPartial::new(&state, "/", None)
        },
    ))
}

pub async fn signup(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    if !signup_open(&state) {
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
                signup: true,
                ..LoginPartial::new(&state, "/", Some(&e.to_string()))
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
    let here = format!("/login?m={}", Message::SignedOut.code());
    let to = match (&state.oidc, &user) {
        // Someone who signs in at the provider signs out there too, and comes back.
        (Some(provider), Some(user)) => {
            let issuer = provider.settings.issuer.as_str();
            let linked = crate::accounts::single_sign_on::is_linked(&state.db, user.id, issuer)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let back = format!("{}/login", super::client::public_base(&req, &state.config));
            match linked {
                true => provider.end_session_url(&back).await.unwrap_or(here),
                false => here,
            }
        }
        _ => here,
    };
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to))
        .finish();
    res.add_cookie(&gone)
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}
