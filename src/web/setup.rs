//! First run. With no account at all, the server prints a one-time setup link
//! (a random token, valid until it is used or the server restarts); the sign-in
//! page says where to find it. The link creates the first administrator in the
//! browser, signs them in and gives them a welcome document.

use std::sync::Mutex;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::AppState;
use super::form::FormData;
use super::respond;
use crate::accounts::{self, AccountError, Creator, User};
use crate::documents::{self, Actor, Valid};
use crate::web::error::AppError;

const WELCOME: &str = include_str!("welcome.md");

/// The setup token while it is good: made at start-up when there are no
/// accounts, gone once used.
#[derive(Default)]
pub struct SetupToken(Mutex<Option<String>>);

impl SetupToken {
    pub fn new(token: Option<String>) -> Self {
        Self(Mutex::new(token))
    }

    fn matches(&self, sent: &str) -> bool {
        self.0.lock().is_ok_and(|t| {
            t.as_deref()
                .is_some_and(|t| crate::random::same_secret(t, sent))
        })
    }

    /// Takes the token if `sent` is it: one request at a time can use it.
    fn take(&self, sent: &str) -> Option<String> {
        let mut held = self.0.lock().ok()?;
        let good = held
            .as_deref()
            .is_some_and(|t| crate::random::same_secret(t, sent));
        if good { held.take() } else { None }
    }

    fn put_back(&self, token: String) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some(token);
        }
    }
}

#[derive(Template)]
#[template(path = "setup/setup_partial.html")]
struct SetupPartial<'a> {
    token: &'a str,
    username: &'a str,
    error: Option<&'a str>,
}

fn form_page(status: StatusCode, token: &str, username: &str, error: Option<&str>) -> HttpResponse {
    respond::fragment(
        status,
        "Set up quire",
        &SetupPartial {
            token,
            username,
            error,
        },
    )
}

pub async fn setup_form(
    setup: web::Data<SetupToken>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    if !setup.matches(&token) {
        return Err(AppError::NotFound);
    }
    Ok(form_page(StatusCode::OK, &token, "", None))
}

pub async fn setup(
    req: HttpRequest,
    state: web::Data<AppState>,
    setup: web::Data<SetupToken>,
    token: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let Some(held) = setup.take(&token) else {
        return Err(AppError::NotFound);
    };
    let username = form.get("username").unwrap_or_default();
    let password = form.get("password").unwrap_or_default();
    // Someone may have made an account on the command line since start-up.
    match accounts::user_count(&state.db).await {
        Ok(0) => {}
        Ok(_) => return Err(AppError::NotFound),
        Err(e) => {
            setup.put_back(held);
            return Err(AppError::Internal(e.into()));
        }
    }
    let created =
        accounts::create_user_by(&state.db, Creator::SetupLink, username, password, true).await;
    let user = match created {
        Ok(user) => user,
        Err(e @ (AccountError::Invalid(_) | AccountError::Taken)) => {
            setup.put_back(held);
            let message = e.to_string();
            return Ok(form_page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &token,
                username,
                Some(&message),
            ));
        }
        Err(e) => {
            setup.put_back(held);
            return Err(AppError::Internal(anyhow::anyhow!(e)));
        }
    };
    tracing::info!(username = %user.username, "the first administrator was made with the setup link");
    let next = match welcome(&state, &user).await {
        Ok(doc) => format!("/d/{}", doc.id),
        Err(e) => {
            tracing::warn!(error = %e, "writing the welcome document failed");
            "/".to_owned()
        }
    };
    super::login::signed_in(&req, &state, &user, &next).await
}

async fn welcome(
    state: &AppState,
    user: &User,
) -> Result<documents::Document, documents::DocError> {
    let valid = Valid::parse("Welcome to quire", WELCOME, state.config.max_doc_bytes)?;
    let actor = Actor {
        user_id: user.id,
        name: &user.username,
    };
    documents::create(&state.db, valid, actor.into()).await
}
