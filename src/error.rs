//! One error type for the web layer. Client variants carry what their page needs,
//! including the text the user submitted; internal ones become a plain 500 whose
//! cause is logged and never sent to the client.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use crate::documents::{Conflicted, DocError, Document};
use crate::web::pages::{self, EditForm};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("Not found")]
    NotFound,
    #[error("Bad request: {0}")]
    BadRequest(String),
    #[error("Forbidden: {0}")]
    Forbidden(String),
    /// Not signed in: go to the sign-in page, then back to `next`.
    #[error("Sign-in required")]
    LoginRequired { next: String },
    /// The form comes back with the user's text and a message (413, 422).
    #[error("{message}")]
    Form {
        status: StatusCode,
        message: String,
        form: Box<EditForm>,
    },
    /// A save based on an old version that could not be merged: both texts are
    /// shown (with the merge, when there is one), nothing is dropped.
    #[error("Edit conflict")]
    Conflict {
        mine: Box<EditForm>,
        current: Box<Document>,
        merge: Option<Box<Conflicted>>,
    },
    /// The request body was larger than quire reads at all; nothing of it was kept.
    #[error("Upload too large")]
    UploadTooLarge { limit: usize },
    /// The server's disk refuses writes (full, read-only): says which.
    #[error("Unwritable: {0}")]
    Unavailable(&'static str),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    /// Maps a domain refusal to the page that explains it, keeping the user's form.
    pub fn from_doc(err: DocError, form: EditForm) -> Self {
        let form = Box::new(form);
        match err {
            DocError::NotFound => Self::NotFound,
            DocError::Forbidden => Self::Form {
                status: StatusCode::FORBIDDEN,
                message: "You may read this document but not change it. Your text is below; \
                          copy it, or ask the owner for edit access."
                    .into(),
                form,
            },
            DocError::Invalid(message) => Self::Form {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message,
                form,
            },
            DocError::Stale { current } => Self::Conflict {
                mine: form,
                current,
                merge: None,
            },
            DocError::Conflict { current, conflict } => Self::Conflict {
                mine: form,
                current,
                merge: Some(conflict),
            },
            DocError::TooLarge { .. } => Self::Form {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: err.to_string(),
                form,
            },
            DocError::EmptyTitle | DocError::TitleTooLong { .. } => Self::Form {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: err.to_string(),
                form,
            },
            DocError::Unwritable(what) => Self::Form {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: unwritable_text(what),
                form,
            },
            DocError::Db(e) => Self::Internal(e.into()),
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The disk refused a write: what happened, and that the user's text is safe
/// on the page in front of them.
pub fn unwritable_text(what: &str) -> String {
    format!(
        "Not saved: {what}, so quire could not write anything. Your text is below; copy it \
         somewhere safe, and save again once the server's administrator has made room \
         (what was saved before is intact)."
    )
}

impl From<DocError> for AppError {
    fn from(err: DocError) -> Self {
        match err {
            DocError::NotFound => Self::NotFound,
            DocError::Forbidden => Self::Forbidden(err.to_string()),
            DocError::Db(e) => Self::Internal(e.into()),
            DocError::Unwritable(what) => Self::Unavailable(what),
            other => Self::BadRequest(other.to_string()),
        }
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::LoginRequired { .. } => StatusCode::SEE_OTHER,
            Self::Form { status, .. } => *status,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::UploadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        match self {
            Self::Internal(e) => {
                tracing::error!(error = ?e, "request failed");
                pages::message(status, "Something went wrong", INTERNAL_TEXT)
            }
            Self::NotFound => pages::message(status, "Not found", NOT_FOUND_TEXT),
            Self::Unavailable(what) => pages::message(
                status,
                "Not saved",
                &format!(
                    "{} — so quire could not write anything. Go back to keep what you typed, \
                     and try again once the server's administrator has made room.",
                    capitalised(what)
                ),
            ),
            Self::Forbidden(why) => pages::message(status, "Not allowed", why),
            Self::LoginRequired { next } => HttpResponse::SeeOther()
                .insert_header((
                    actix_web::http::header::LOCATION,
                    format!(
                        "/login?next={}",
                        percent_encoding::utf8_percent_encode(
                            next,
                            percent_encoding::NON_ALPHANUMERIC
                        )
                    ),
                ))
                .finish(),
            Self::BadRequest(why) => pages::message(status, "That request was not understood", why),
            Self::UploadTooLarge { limit } => pages::message(
                status,
                "Too large",
                &format!(
                    "The form sent was larger than {} bytes, so quire did not read it. \
                     Your text is still in your browser: go back, shorten it and save again.",
                    crate::documents::group(*limit)
                ),
            ),
            Self::Form { message, form, .. } => pages::edit_with_error(status, form, message),
            Self::Conflict {
                mine,
                current,
                merge,
            } => crate::web::conflict::page(mine, current, merge.as_deref()),
        }
    }
}

const INTERNAL_TEXT: &str = "quire could not finish this request. Nothing you typed was \
    saved by it; go back to keep your text and try again. The server log has the details.";
const NOT_FOUND_TEXT: &str = "There is no document or page at this address. It may have been \
    deleted for good, or the link may be mistyped.";
