//! A save that arrives after the session ended is not lost. With JavaScript the
//! editor keeps the text and says so; without it, the browser would follow a
//! redirect to the sign-in page and the text would be gone. So a plain form save
//! (create or update) without a session is answered with a sign-in form that
//! carries every field of the save, posting back to the same address; signing in
//! there completes the save, through the same handler, version and merge.

use actix_web::HttpResponse;
use actix_web::dev::ServiceRequest;
use actix_web::http::{Method, StatusCode};
use askama::Template;

use super::AppState;
use super::csrf::CSRF_FIELD;
use super::form::FormData;
use super::respond;
use crate::accounts::{self, AccountError, User};

/// The sign-in fields; named apart from any field a document form has.
const USERNAME: &str = "sign_in_username";
const PASSWORD: &str = "sign_in_password";

/// What a save without a session leads to.
pub enum Outcome {
    /// The sign-in fields were right: a new session, and the save goes on.
    SignedIn { user: User, session: String },
    /// The form to sign in (again), with the text.
    Ask(SignInToSave),
}

#[derive(Template)]
#[template(path = "sign_in_to_save.html")]
pub struct SignInToSave {
    status: StatusCode,
    action: String,
    pending: Vec<(String, String)>,
    username: String,
    title: String,
    body: String,
    error: Option<String>,
}

impl SignInToSave {
    /// The page, drawn inside the request's CSRF scope (the form carries the token).
    pub fn response(&self) -> HttpResponse {
        respond::fragment(self.status, "Sign in to save", self)
    }
}

/// True for a save sent by a plain form post: creating (`/docs`) or updating
/// (`/d/{id}`) a document, or asking for its preview (`/preview`, which then
/// shows the editor with the text). htmx saves keep their redirect: the editor, still on
/// screen, says the session ended and keeps the text.
pub fn applies(req: &ServiceRequest) -> bool {
    let path = req.path();
    let save = path == "/docs"
        || path == "/preview"
        || path
            .strip_prefix("/d/")
            .is_some_and(|id| !id.is_empty() && !id.contains('/'));
    save && req.method() == Method::POST && !req.headers().contains_key("hx-request")
}

/// The sign-in form that carries every field of `form` back to where it was sent.
pub fn ask(
    req: &ServiceRequest,
    form: &FormData,
    status: StatusCode,
    error: Option<String>,
) -> SignInToSave {
    SignInToSave {
        status,
        action: req.path().to_owned(),
        pending: form
            .iter()
            .filter(|(name, _)| ![CSRF_FIELD, USERNAME, PASSWORD].contains(name))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
        username: form.get(USERNAME).unwrap_or_default().to_owned(),
        title: form.get("title").unwrap_or_default().to_owned(),
        body: form.get("body").unwrap_or_default().to_owned(),
        error,
    }
}

/// A plain form save that came with no session cookie at all (signed out in
/// another tab, or the browser dropped its cookies): its token cannot be checked,
/// so it is not saved, but its text comes back in the sign-in form, which carries
/// a token of this browser's own. Signing in there saves it.
pub fn without_session(req: &ServiceRequest, form: &FormData) -> SignInToSave {
    ask(req, form, StatusCode::UNAUTHORIZED, Some(SIGNED_OUT.into()))
}

const SIGNED_OUT: &str = "You are not signed in here (signed out in another tab, or the browser \
     dropped its cookies), so this save did not reach your documents. Nothing is lost: sign in \
     here and quire saves your text.";

/// Signs in with the form's sign-in fields, or asks for them (again).
pub async fn sign_in(state: &AppState, req: &ServiceRequest, form: &FormData) -> Outcome {
    let ask =
        |status: StatusCode, error: Option<String>| Outcome::Ask(ask(req, form, status, error));
    let (Some(username), Some(password)) = (form.get(USERNAME), form.get(PASSWORD)) else {
        return ask(StatusCode::UNAUTHORIZED, None);
    };
    let address = super::client::address(req.request(), &state.config);
    let user = match accounts::authenticate(&state.db, username, password, &address).await {
        Ok(user) => user,
        Err(e @ AccountError::WrongCredentials) => {
            return ask(StatusCode::UNAUTHORIZED, Some(e.to_string()));
        }
        Err(e @ (AccountError::RateLimited { .. } | AccountError::Busy)) => {
            return ask(StatusCode::TOO_MANY_REQUESTS, Some(e.to_string()));
        }
        Err(e) => {
            tracing::error!(error = %e, "checking a password to save failed");
            return ask(StatusCode::INTERNAL_SERVER_ERROR, Some(NOT_CHECKED.into()));
        }
    };
    match accounts::start_session(&state.db, &user).await {
        Ok(session) => Outcome::SignedIn { user, session },
        Err(e) => {
            tracing::error!(error = %e, "starting a session to save failed");
            ask(StatusCode::SERVICE_UNAVAILABLE, Some(NOT_CHECKED.into()))
        }
    }
}

const NOT_CHECKED: &str = "quire could not sign you in just now (the server log says why). Your text is kept here: try again.";
