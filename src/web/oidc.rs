//! OpenID Connect sign-in's pages: `/login/oidc` sends the browser to the
//! provider with a fresh state, nonce and PKCE verifier kept in a short-lived
//! cookie only these two routes read; `/login/oidc/callback` checks what comes
//! back against that cookie (used once), has the provider's word checked, and
//! signs the person in with a new session. A signed-in person who proves their
//! password can link the provider's sign-in to their account instead.

use std::sync::Arc;

use actix_web::cookie::Cookie;
use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::AppState;
use super::form::FormData;
use super::login::{sign_in_page, signed_in_lasting};
use super::middleware::auth::safe_next;
use crate::accounts::oidc::{Flow, OidcError, Provider, Settings};
use crate::accounts::single_sign_on::{self, Identity};
use crate::accounts::{self, AccountError, SESSION_IDLE_MS, User};
use crate::config::Config;
use crate::web::error::AppError;

/// The cookie holding a sign-in under way; sent only to `/login/oidc…`.
const FLOW_COOKIE: &str = "quire_oidc";
const FLOW_PATH: &str = "/login/oidc";
/// How long someone may take at the provider's page.
const FLOW_MINUTES: i64 = 10;

/// The provider quire signs people in with, when one is configured; a
/// configuration that cannot work stops quire at start with the reason.
pub fn provider(config: &Config) -> anyhow::Result<Option<Arc<Provider>>> {
    let s = &config.sign_in;
    let has_header = config.auth_header.as_deref().is_some_and(|h| !h.is_empty());
    let Some(issuer) = s.oidc_issuer.clone() else {
        if !s.password_sign_in && !has_header {
            anyhow::bail!(
                "QUIRE_PASSWORD_SIGN_IN=false needs single sign-on (QUIRE_OIDC_ISSUER or \
                 QUIRE_AUTH_HEADER): nobody could sign in"
            );
        }
        return Ok(None);
    };
    let client_id = s
        .oidc_client_id
        .clone()
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| anyhow::anyhow!("QUIRE_OIDC_ISSUER needs QUIRE_OIDC_CLIENT_ID"))?;
    let settings = Settings {
        issuer,
        client_id,
        client_secret: s.client_secret().map_err(anyhow::Error::msg)?,
        name: s.oidc_name.trim().to_owned(),
        scopes: s
            .oidc_scopes
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        username_claim: s.oidc_username_claim.trim().to_owned(),
        groups_claim: Some(s.oidc_groups_claim.trim().to_owned()).filter(|g| !g.is_empty()),
        admin_group: config.auth_admin_group.clone().filter(|g| !g.is_empty()),
        create_accounts: s.oidc_create_accounts,
    };
    Ok(Some(Arc::new(
        Provider::new(settings).map_err(anyhow::Error::msg)?,
    )))
}

fn configured(state: &AppState) -> Result<&Provider, AppError> {
    state.oidc.as_deref().ok_or(AppError::NotFound)
}

/// Where the provider sends people back to.
fn callback_url(req: &HttpRequest, state: &AppState) -> String {
    let base = super::client::public_base(req, &state.config);
    format!("{base}{FLOW_PATH}/callback")
}

#[derive(Deserialize)]
pub struct StartQuery {
    next: Option<String>,
}

/// `GET /login/oidc`: off to the provider.
pub async fn start(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<StartQuery>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(query.next.as_deref());
    leave_for_provider(&req, &state, &next, None).await
}

/// Sends the browser to the provider, keeping the flow (and, when linking,
/// whose account the sign-in joins) in its cookie.
async fn leave_for_provider(
    req: &HttpRequest,
    state: &AppState,
    next: &str,
    link: Option<i64>,
) -> Result<HttpResponse, AppError> {
    let provider = configured(state)?;
    let (url, flow) = match provider.start(&callback_url(req, state)).await {
        Ok(started) => started,
        Err(e) => return Ok(failed(state, next, &e)),
    };
    let value = format!(
        "{}.{}.{}.{}.{}",
        flow.state,
        flow.nonce,
        flow.verifier,
        link.unwrap_or(0),
        utf8_percent_encode(next, NON_ALPHANUMERIC)
    );
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, url))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish();
    res.add_cookie(&flow_cookie(req, state, value, FLOW_MINUTES))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}

fn flow_cookie(
    req: &HttpRequest,
    state: &AppState,
    value: String,
    minutes: i64,
) -> Cookie<'static> {
    let mut c = super::middleware::auth::cookie(
        FLOW_COOKIE,
        value,
        super::client::cookies_secure(req, &state.config),
    );
    c.set_path(FLOW_PATH);
    c.set_max_age(CookieDuration::minutes(minutes));
    c.into_owned()
}

/// A sign-in under way, as its cookie keeps it.
struct Pending {
    flow: Flow,
    link: Option<i64>,
    next: String,
}

fn pending(req: &HttpRequest) -> Option<Pending> {
    let cookie = req.cookie(FLOW_COOKIE)?;
    let mut parts = cookie.value().split('.');
    let mut part = || parts.next().map(str::to_owned);
    let flow = Flow {
        state: part()?,
        nonce: part()?,
        verifier: part()?,
    };
    let link = part()?.parse::<i64>().ok().filter(|id| *id > 0);
    let next = percent_decode_str(&part()?)
        .decode_utf8()
        .ok()?
        .into_owned();
    Some(Pending {
        flow,
        link,
        next: safe_next(Some(&next)),
    })
}

#[derive(Deserialize)]
pub struct Callback {
    code: Option<String>,
    state: Option<String>,
    iss: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// `GET /login/oidc/callback`: the provider sent the browser back.
pub async fn callback(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<Callback>,
) -> Result<HttpResponse, AppError> {
    let provider = configured(&state)?;
    let address = super::client::address(&req, &state.config);
    let mut res = match accounts::count_sign_in(&state.db, "oidc", &address).await {
        Ok(()) => finish(&req, &state, provider, &query).await?,
        Err(e @ (AccountError::RateLimited { .. } | AccountError::Busy)) => sign_in_page(
            &state,
            StatusCode::TOO_MANY_REQUESTS,
            "/",
            Some(&e.to_string()),
        ),
        Err(e) => return Err(super::account::account_error(e)),
    };
    // The flow is used once, whatever came of it.
    res.add_cookie(&flow_cookie(&req, &state, String::new(), 0))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(res)
}

async fn finish(
    req: &HttpRequest,
    state: &AppState,
    provider: &Provider,
    query: &Callback,
) -> Result<HttpResponse, AppError> {
    let Some(pending) = pending(req) else {
        return Ok(refused(
            state,
            "/",
            StatusCode::BAD_REQUEST,
            "This sign-in was not started here, has expired or was already used. Start again.",
        ));
    };
    let next = pending.next.as_str();
    if let Some(error) = &query.error {
        let why = query.error_description.as_deref().unwrap_or(error);
        tracing::warn!(error, why, "the identity provider refused a sign-in");
        let text = format!("The identity provider did not sign you in: {why}");
        return Ok(refused(state, next, StatusCode::FORBIDDEN, &text));
    }
    let (Some(code), Some(given)) = (&query.code, &query.state) else {
        return Ok(refused(
            state,
            next,
            StatusCode::BAD_REQUEST,
            "The identity provider sent no code.",
        ));
    };
    if !same_secret(given, &pending.flow.state) {
        return Ok(refused(
            state,
            next,
            StatusCode::BAD_REQUEST,
            "This answer belongs to another sign-in (its state does not match). Start again.",
        ));
    }
    if query
        .iss
        .as_deref()
        .is_some_and(|iss| iss != provider.settings.issuer)
    {
        let text = "The answer came from another identity provider.";
        return Ok(refused(state, next, StatusCode::BAD_REQUEST, text));
    }
    let person = match provider
        .finish(&callback_url(req, state), code, &pending.flow)
        .await
    {
        Ok(person) => person,
        Err(e) => return Ok(failed(state, next, &e)),
    };
    let issuer = provider.settings.issuer.as_str();
    let user = match pending.link {
        Some(id) => {
            let Some(me) = req
                .extensions()
                .get::<User>()
                .cloned()
                .filter(|u| u.id == id)
            else {
                let text = "Linking needs the account that asked for it to be signed in.";
                return Ok(refused(state, next, StatusCode::FORBIDDEN, text));
            };
            match single_sign_on::link(&state.db, &me, issuer, &person.subject).await {
                Ok(()) => me,
                Err(e @ AccountError::LinkedElsewhere) => {
                    return Ok(refused(state, next, StatusCode::CONFLICT, &e.to_string()));
                }
                Err(e) => return Err(super::account::account_error(e)),
            }
        }
        None => {
            let who = Identity {
                issuer,
                subject: &person.subject,
                name: &person.name,
                groups: person.groups.as_deref(),
                admin: person.admin,
                may_create: provider.settings.create_accounts,
                email: person.email.as_deref(),
            };
            match single_sign_on::sign_in(&state.db, &who).await {
                Ok(user) => user,
                Err(e @ (AccountError::Disabled | AccountError::NotLinked)) => {
                    return Ok(refused(state, "/", StatusCode::FORBIDDEN, &e.to_string()));
                }
                Err(e) => return Err(super::account::account_error(e)),
            }
        }
    };
    let address = super::client::address(req, &state.config);
    accounts::forgive_sign_in(&state.db, "oidc", &address)
        .await
        .map_err(super::account::account_error)?;
    // A new session, whatever the browser had: its old id is worth nothing.
    signed_in_lasting(req, state, &user, next, SESSION_IDLE_MS).await
}

/// Two secrets compared without telling by the time taken how much matched.
fn same_secret(a: &str, b: &str) -> bool {
    Sha256::digest(a.as_bytes()) == Sha256::digest(b.as_bytes())
}

fn failed(state: &AppState, next: &str, e: &OidcError) -> HttpResponse {
    tracing::warn!(error = %e, "OpenID Connect sign-in failed");
    let status = match e {
        OidcError::Unreachable(_) => StatusCode::BAD_GATEWAY,
        OidcError::Refused(_) => StatusCode::FORBIDDEN,
    };
    refused(state, next, status, &e.to_string())
}

/// The sign-in page with what went wrong, and the provider's button to start again.
fn refused(state: &AppState, next: &str, status: StatusCode, message: &str) -> HttpResponse {
    sign_in_page(state, status, next, Some(message))
}

/// `POST /account/link-sign-in`: the signed-in person proves their password,
/// then signs in at the provider; that sign-in becomes theirs.
pub async fn link(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: super::middleware::session::CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    configured(&state)?;
    let password = form.get("password").unwrap_or_default();
    let address = super::client::address(&req, &state.config);
    match accounts::authenticate(&state.db, &user.0.username, password, &address).await {
        Ok(me) if me.id == user.0.id => {
            leave_for_provider(&req, &state, "/account", Some(me.id)).await
        }
        Ok(_) | Err(AccountError::WrongCredentials) => Err(AppError::Refused {
            status: StatusCode::UNAUTHORIZED,
            message: "That is not your password: nothing was linked.".into(),
        }),
        Err(e @ (AccountError::RateLimited { .. } | AccountError::Busy)) => {
            Err(AppError::Refused {
                status: StatusCode::TOO_MANY_REQUESTS,
                message: e.to_string(),
            })
        }
        Err(e) => Err(super::account::account_error(e)),
    }
}
