//! Who is signed in: the session cookie, looked up once per request by whichever
//! of these the routes table puts in front of a page. Public pages look it up
//! only to show who is signed in; the rest refuse without a session (a plain
//! form save is offered sign-in with its text kept); the document page reads the
//! session and the document together, in one query, through `PageView`.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, ResponseError, web};
use futures_util::future::LocalBoxFuture;

use super::auth::{CsrfToken, SESSION_COOKIE, cookie};
use crate::accounts::{self, User};
use crate::documents::{DocId, Document, now_ms};
use crate::web::AppState;
use crate::web::cache::CachedPage;
use crate::web::error::AppError;
use crate::web::form::FormData;

fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, AppError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("no application state")))
}

/// The user of the request's session cookie, if it names a live session.
async fn look_up(req: &HttpRequest) -> Result<Option<User>, AppError> {
    let Some(c) = req.cookie(SESSION_COOKIE) else {
        return Ok(None);
    };
    session_user(state_of(req)?.get_ref(), c.value()).await
}

/// The user of a session token, if it names a live session.
pub(super) async fn session_user(state: &AppState, token: &str) -> Result<Option<User>, AppError> {
    if let Some(user) = state.cache.who.user(token, now_ms()) {
        return Ok(Some(user));
    }
    let epoch = state.cache.who.sessions_epoch();
    let live = accounts::live_session(&state.db, token)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(live.map(|live| {
        state.cache.who.keep_session(epoch, token, &live);
        live.user
    }))
}

/// Where sign-in sends the user back to: this page, with its query.
fn here(req: &HttpRequest) -> AppError {
    let next = match req.query_string() {
        "" => req.path().to_owned(),
        q => format!("{}?{q}", req.path()),
    };
    AppError::LoginRequired { next }
}

/// A failed lookup is answered here, as a page the layout draws; an error passed
/// up would skip the layout and reach the browser as an empty 500.
fn refuse(req: ServiceRequest, err: AppError) -> ServiceResponse<BoxBody> {
    let (http_req, _) = req.into_parts();
    ServiceResponse::new(http_req, err.error_response())
}

/// Public pages: the signed-in user, if any, for the header; never refuses.
pub async fn optional_user(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    match look_up(req.request()).await {
        Ok(Some(user)) => {
            req.extensions_mut().insert(user);
        }
        Ok(None) => {}
        Err(e) => return Ok(refuse(req, e)),
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Pages for signed-in users: without a live session, the sign-in page (which
/// comes back here), or for a plain form save, sign-in with the text kept.
pub async fn require_user(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let user = match look_up(req.request()).await {
        Ok(user) => user,
        Err(e) => return Ok(refuse(req, e)),
    };
    if let Some(user) = user {
        req.extensions_mut().insert(user);
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let form = req.extensions_mut().remove::<FormData>();
    let (Some(form), Ok(state)) = (form, state_of(req.request())) else {
        let err = here(req.request());
        return Ok(refuse(req, err));
    };
    if !crate::web::resume::applies(&req) {
        let err = here(req.request());
        return Ok(refuse(req, err));
    }
    match crate::web::resume::sign_in(&state, &req, &form).await {
        crate::web::resume::Outcome::SignedIn { user, session } => {
            let csrf = crate::web::csrf::for_session(&session);
            req.extensions_mut().insert(CsrfToken(csrf.clone()));
            req.extensions_mut().insert(user);
            let secure = crate::web::client::cookies_secure(req.request(), &state.config);
            let mut res = crate::web::csrf::scope(csrf, next.call(req))
                .await?
                .map_into_boxed_body();
            res.response_mut()
                .add_cookie(&cookie(SESSION_COOKIE, session, secure))?;
            Ok(res)
        }
        crate::web::resume::Outcome::Ask(page) => {
            let (http_req, _) = req.into_parts();
            Ok(ServiceResponse::new(http_req, page.response()))
        }
    }
}

/// The signed-in user, put there by `require_user` (or `PageView`).
pub struct CurrentUser(pub User);

impl FromRequest for CurrentUser {
    type Error = AppError;
    type Future = std::future::Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(
            req.extensions()
                .get::<User>()
                .cloned()
                .map(CurrentUser)
                .ok_or_else(|| here(req)),
        )
    }
}

/// A document page view (`GET /d/{id}`), the hottest path: the session and the
/// document `{id}` with the viewer's access to it, from the page cache or read
/// in one query. Refuses like `require_user` without a live session; `doc` is
/// `None` when no document has that id (or when the page came from the cache).
pub struct PageView {
    pub user: User,
    pub id: DocId,
    pub doc: Option<Document>,
    /// The page as the user sees it, from the cache.
    pub cached: Option<CachedPage>,
    /// The change counter before `doc` was read (`PageCache::epoch`).
    pub epoch: Option<u64>,
}

impl FromRequest for PageView {
    type Error = AppError;
    type Future = LocalBoxFuture<'static, Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let id = req.match_info().get("id").and_then(DocId::parse);
            let cookie = req.cookie(SESSION_COOKIE);
            let (Some(id), Some(cookie)) = (id, cookie) else {
                // No such id can exist: a stranger is sent to sign in, a
                // signed-in user told there is no such document.
                return match look_up(&req).await? {
                    Some(user) => {
                        req.extensions_mut().insert(user);
                        Err(AppError::NotFound)
                    }
                    None => Err(here(&req)),
                };
            };
            let state = state_of(&req)?;
            let hit = req.extensions().get::<CsrfToken>().and_then(|csrf| {
                state
                    .cache
                    .page_view(cookie.value(), id.as_str(), now_ms(), &csrf.0)
            });
            if let Some((user, page)) = hit {
                req.extensions_mut().insert(user.clone());
                return Ok(PageView {
                    user,
                    id,
                    doc: None,
                    cached: Some(page),
                    epoch: None,
                });
            }
            let epoch = state.cache.epoch();
            let sessions_epoch = state.cache.who.sessions_epoch();
            let found = accounts::session_user_with_document(&state.db, cookie.value(), &id)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let Some((live, doc)) = found else {
                return Err(here(&req));
            };
            state
                .cache
                .who
                .keep_session(sessions_epoch, cookie.value(), &live);
            let user = live.user;
            req.extensions_mut().insert(user.clone());
            Ok(PageView {
                user,
                id,
                doc,
                cached: None,
                epoch,
            })
        })
    }
}
