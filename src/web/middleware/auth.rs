//! The checks at the door, by kind of route (the routes table, `crate::app`, says
//! which applies where): the CSRF check on every state-changing request from a
//! browser, and bearer tokens for the API. Who is signed in is `session`.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError, web};
use futures_util::StreamExt;

use crate::accounts;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::form::{FormData, FormLimit};

pub const SESSION_COOKIE: &str = "quire_session";
pub const CSRF_COOKIE: &str = "quire_csrf";
pub use crate::web::csrf::CSRF_FIELD;
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The token this browser must send back with every state-changing request.
#[derive(Clone)]
pub struct CsrfToken(pub String);

fn valid_token(t: &str) -> bool {
    t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

pub fn cookie<'a>(name: &'a str, value: String, secure: bool) -> Cookie<'a> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .finish()
}

/// Reads an urlencoded body (up to the form limit) for its fields (the CSRF
/// token among them), then puts the bytes back for the handler.
async fn form_fields(req: &mut ServiceRequest) -> Result<FormData, AppError> {
    let limit = req
        .app_data::<web::Data<FormLimit>>()
        .map_or(FormLimit::for_cap(262_144).0, |l| l.0);
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(AppError::UploadTooLarge { limit });
    }
    let mut payload = req.take_payload();
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| AppError::BadRequest(format!("Upload failed: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(AppError::UploadTooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    let body = body.freeze();
    let fields = FormData::parse(&body)?;
    req.set_payload(Payload::from(body));
    Ok(fields)
}

/// Browser pages: the CSRF cookie is issued where missing, and a state-changing
/// request must carry the token (header, form field or the first multipart
/// field) of its session, or of the CSRF cookie before signing in. A plain form's
/// fields are kept for `session::require_user` (signing in to save).
pub async fn browser(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let secure = match req.app_data::<web::Data<AppState>>() {
        Some(state) => crate::web::client::cookies_secure(req.request(), &state.config),
        None => false,
    };
    let existing = req
        .cookie(CSRF_COOKIE)
        .map(|c| c.value().to_owned())
        .filter(|t| valid_token(t));
    let issue_cookie = existing.is_none();
    let anonymous_csrf = existing.unwrap_or_else(accounts::random_token);
    // With a session cookie the token is that session's own (also once the
    // session has expired, so the form goes on to the sign-in page rather than
    // a 403); without one, the CSRF cookie's.
    let session_csrf = req
        .cookie(SESSION_COOKIE)
        .filter(|c| !c.value().is_empty())
        .map(|c| crate::web::csrf::for_session(c.value()));
    let csrf = session_csrf
        .clone()
        .unwrap_or_else(|| anonymous_csrf.clone());
    req.extensions_mut().insert(CsrfToken(csrf.clone()));

    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let refusal = if safe {
        None
    } else {
        let header_token = req
            .headers()
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let sent = match header_token {
            Some(t) => Ok(Some(t)),
            None if crate::web::multipart::is_multipart(&req) => {
                crate::web::multipart::leading_field(&mut req, CSRF_FIELD).await
            }
            None => form_fields(&mut req).await.map(|form| {
                let token = form.get(CSRF_FIELD).map(str::to_owned);
                req.extensions_mut().insert(form);
                token
            }),
        };
        match sent {
            Ok(Some(t))
                if (session_csrf.is_some() || !issue_cookie)
                    && crate::random::same_secret(&t, &csrf) =>
            {
                None
            }
            Ok(_) => Some(AppError::Forbidden(
                "This form has expired or did not come from quire. Go back, reload the page \
                 (copy your text first if you typed any) and try again."
                    .into(),
            )),
            Err(e) => Some(e),
        }
    };
    // A plain form save without any session cookie is answered with the sign-in
    // form and its text, not a bare refusal (`resume`).
    let resumable = matches!(refusal, Some(AppError::Forbidden(_)))
        && session_csrf.is_none()
        && crate::web::resume::applies(&req)
        && from_here(&req);
    let resume_page = if resumable {
        req.extensions()
            .get::<FormData>()
            .map(|form| crate::web::resume::without_session(&req, form))
    } else {
        None
    };
    let mut res = match (refusal, resume_page) {
        (Some(_), Some(page)) => {
            let response = crate::web::csrf::render_with(csrf, || page.response());
            let (http_req, _) = req.into_parts();
            ServiceResponse::new(http_req, response)
        }
        (Some(err), None) => {
            let (http_req, _) = req.into_parts();
            ServiceResponse::new(http_req, err.error_response())
        }
        (None, _) => crate::web::csrf::scope(csrf, next.call(req))
            .await?
            .map_into_boxed_body(),
    };
    if issue_cookie {
        let mut c = cookie(CSRF_COOKIE, anonymous_csrf, secure);
        c.set_max_age(CookieDuration::days(365));
        res.response_mut().add_cookie(&c)?;
    }
    Ok(res)
}

/// True when the browser says the request comes from a page of this same site (its
/// `Origin` names the host it was sent to). A save from another site's page must not
/// be offered for saving after a sign-in: its text is not the user's.
fn from_here(req: &ServiceRequest) -> bool {
    // A page of another site cannot set the forwarded-host headers a proxy adds, so
    // the host as a proxy passes it on is as good as the Host header here.
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let Some((_, origin_host)) = origin.split_once("://") else {
        return false;
    };
    let direct = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok());
    let info = req.connection_info();
    [direct, Some(info.host())]
        .into_iter()
        .flatten()
        .any(|host| origin_host.eq_ignore_ascii_case(host))
}

/// The user of an API token: from the cache, or looked up and kept.
async fn token_user(state: &AppState, token: &str) -> anyhow::Result<Option<accounts::User>> {
    let now = crate::documents::now_ms();
    if let Some(user) = state.cache.who.token_user(token, now) {
        return Ok(Some(user));
    }
    let epoch = state.cache.who.accounts_epoch();
    let holder = accounts::tokens::holder_of(&state.db, token).await?;
    Ok(holder.map(|holder| {
        state.cache.who.keep_token(epoch, token, &holder);
        holder.user
    }))
}

/// The API takes bearer tokens only: cookies are ignored, so a page on another
/// site cannot ride a browser's session, and no CSRF token is needed.
pub async fn api(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_owned());
    let user = match token {
        Some(t) => match token_user(&state, &t).await {
            Ok(user) => user,
            Err(e) => {
                tracing::error!(error = ?e, "looking up an API token failed");
                let res = actix_web::HttpResponse::InternalServerError()
                    .json(serde_json::json!({ "error": "internal error; see the server log" }));
                let (http_req, _) = req.into_parts();
                return Ok(ServiceResponse::new(http_req, res));
            }
        },
        None => None,
    };
    match user {
        Some(u) => {
            req.extensions_mut().insert(u);
            Ok(next.call(req).await?.map_into_boxed_body())
        }
        None => {
            let res = actix_web::HttpResponse::Unauthorized()
                .insert_header((header::WWW_AUTHENTICATE, "Bearer"))
                .json(serde_json::json!({
                    "error": "Send Authorization: Bearer with an API token from your account page."
                }));
            let (http_req, _) = req.into_parts();
            Ok(ServiceResponse::new(http_req, res))
        }
    }
}

/// Where to go after signing in: only paths on this site. Browsers drop tabs and
/// line breaks from a URL and read a backslash as `/` (WHATWG URL rules), so `/\t/evil`
/// would leave the site; anything but printable ASCII, a backslash or a leading
/// `//` sends the user home instead.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && n.bytes().all(|b| b.is_ascii_graphic() && b != b'\\') =>
        {
            n.to_owned()
        }
        _ => "/".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn only_plain_paths_on_this_site_are_followed() {
        for ok in ["/", "/d/abc?m=saved", "/search?q=a%20b"] {
            assert_eq!(safe_next(Some(ok)), ok);
        }
        for bad in [
            "//evil.example",
            "/\t/evil.example",
            "/\\evil.example",
            "/\n/evil.example",
            "/x\ry",
            "https://evil.example",
            "/a b",
            "/\u{e9}",
            "",
        ] {
            assert_eq!(safe_next(Some(bad)), "/", "{bad:?}");
        }
    }
}
