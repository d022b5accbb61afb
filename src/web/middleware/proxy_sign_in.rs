//! Single sign-on by a trusted proxy's header (`QUIRE_AUTH_HEADER`): a request
//! from one of `QUIRE_TRUSTED_PROXIES` that names a person is signed in as them
//! (their account made at the first request, their groups kept in step from
//! `QUIRE_AUTH_GROUPS_HEADER`), with a session of their own, so every page
//! after this one reads the session as after a password sign-in. From any
//! other peer the header is the client's own word: ignored, and said once in
//! the log. Runs inside `db_gate`, outside the routes' CSRF and session checks,
//! which then see the session this made.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};

use super::auth::{SESSION_COOKIE, cookie};
use crate::accounts::single_sign_on::{self, Identity, PROXY_HEADER};
use crate::accounts::{self, AccountError, User};
use crate::web::AppState;
use crate::web::error::AppError;

/// Whom each header (name and groups, as sent) was last found to be, by id and
/// user name (an id alone could be a deleted account's, given again): a request
/// whose session is already theirs goes on without a write. Sent groups that
/// change take the slow way once, which keeps the groups in step.
#[derive(Default)]
pub struct ProxyLinks(Mutex<HashMap<String, (i64, String)>>);

/// Enough for every person of a large team, sent with a few group lists each.
const KEPT_LINKS: usize = 10_000;

impl ProxyLinks {
    fn get(&self, key: &str) -> Option<(i64, String)> {
        self.0.lock().ok()?.get(key).cloned()
    }

    fn keep(&self, key: String, user: &User) {
        if let Ok(mut links) = self.0.lock() {
            if links.len() >= KEPT_LINKS {
                links.clear();
            }
            links.insert(key, (user.id, user.username.clone()));
        }
    }
}

/// Routes that never read a browser session.
fn sessionless(path: &str) -> bool {
    ["/api/", "/static/"].iter().any(|p| path.starts_with(p))
        || ["/healthz", "/readyz", "/metrics", "/favicon.ico"].contains(&path)
}

/// Every value of a header, joined as one list.
fn header_text(headers: &HeaderMap, name: &str) -> String {
    headers
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",")
}

/// The session cookie's value, read from the request's cookie headers.
fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, value)| *name == SESSION_COOKIE && !value.is_empty())
        .map(|(_, value)| value.trim_matches('"').to_owned())
}

static WARNED: AtomicBool = AtomicBool::new(false);

pub async fn wrap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let config = &state.config;
    let Some(name_header) = config.auth_header.as_deref().filter(|h| !h.is_empty()) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let subject = header_text(req.headers(), name_header).trim().to_owned();
    if subject.is_empty() || sessionless(req.path()) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    if !crate::web::client::via_proxy(req.request(), config) {
        if !WARNED.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                peer = ?req.peer_addr(),
                header = name_header,
                "a request named a person in the single sign-on header but did not come \
                 from QUIRE_TRUSTED_PROXIES: the header was ignored (said once)"
            );
        }
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let groups = config
        .auth_groups_header
        .as_deref()
        .map(|h| header_text(req.headers(), h));
    let key = format!("{subject}\n{}", groups.as_deref().unwrap_or_default());
    // The cookie header is read here without `HttpRequest::cookie`, which would
    // keep what it parsed for the routes after a new session replaced it.
    let session = match session_token(req.headers()) {
        Some(token) => super::session::session_user(&state, &token)
            .await
            .ok()
            .flatten(),
        None => None,
    };
    let links = req.app_data::<web::Data<ProxyLinks>>().cloned();
    let known = links.as_ref().and_then(|l| l.get(&key));
    if let (Some(s), Some((id, name))) = (&session, known)
        && s.id == id
        && s.username == name
    {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let user = match sign_in(&state, &subject, groups.as_deref()).await {
        Ok(user) => user,
        Err(e) => {
            let (http_req, _) = req.into_parts();
            return Ok(ServiceResponse::new(http_req, e.error_response()));
        }
    };
    if let Some(links) = links {
        links.keep(key, &user);
    }
    if session.is_some_and(|s| s.id == user.id) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    start_session(req, next, &state, &user).await
}

/// Signs the header's person in: their account, groups and rights.
async fn sign_in(state: &AppState, subject: &str, groups: Option<&str>) -> Result<User, AppError> {
    let config = &state.config;
    let groups: Option<Vec<String>> =
        groups.map(|g| g.split(',').map(|s| s.trim().to_owned()).collect());
    let admin = match (&config.auth_admin_group, &groups) {
        (Some(admin), Some(groups)) => Some(groups.iter().any(|g| g.eq_ignore_ascii_case(admin))),
        _ => None,
    };
    let who = Identity {
        issuer: PROXY_HEADER,
        subject,
        name: subject,
        groups: groups.as_deref(),
        admin,
        may_create: true,
        email: None,
    };
    single_sign_on::sign_in(&state.db, &who)
        .await
        .map_err(|e| match e {
            AccountError::Disabled => AppError::Forbidden(e.to_string()),
            e => crate::web::account::account_error(e),
        })
}

/// A new session for `user`, which this request already reads (its cookie
/// header is rewritten) and the browser keeps.
async fn start_session(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    state: &AppState,
    user: &User,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let token = match accounts::start_session(&state.db, user).await {
        Ok(token) => token,
        Err(e) => {
            let err = crate::web::account::account_error(e.into());
            let (http_req, _) = req.into_parts();
            return Ok(ServiceResponse::new(http_req, err.error_response()));
        }
    };
    let others: Vec<String> = req
        .headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.starts_with(&format!("{SESSION_COOKIE}=")))
        .map(str::to_owned)
        .collect();
    let mut cookies = others;
    cookies.push(format!("{SESSION_COOKIE}={token}"));
    let value = HeaderValue::from_str(&cookies.join("; "))
        .map_err(|e| actix_web::error::ErrorBadRequest(e.to_string()))?;
    req.headers_mut().insert(header::COOKIE, value);
    let secure = crate::web::client::cookies_secure(req.request(), &state.config);
    let mut res = next.call(req).await?.map_into_boxed_body();
    res.response_mut()
        .add_cookie(&cookie(SESSION_COOKIE, token, secure))?;
    Ok(res)
}
