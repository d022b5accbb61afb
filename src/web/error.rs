//! One error type for the web layer. Client variants carry what their page needs,
//! including the text the user submitted; internal ones become a plain 500 whose
//! cause is logged and never sent to the client.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use crate::documents::{Conflicted, DocError, Document};
use crate::web::editor::{EditForm, EditPartial};
use crate::web::respond;

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
    /// A refusal the user can act on, as a page with its status (`doc_status`).
    #[error("{message}")]
    Refused { status: StatusCode, message: String },
    /// The server's disk refuses writes (full, read-only): says which.
    #[error("Unwritable: {0}")]
    Unavailable(&'static str),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The one mapping from a refused or failed document operation to its HTTP
/// status, for the pages, the JSON API and drafts alike.
pub fn doc_status(err: &DocError) -> StatusCode {
    match err {
        DocError::NotFound => StatusCode::NOT_FOUND,
        DocError::Forbidden => StatusCode::FORBIDDEN,
        DocError::AccountGone => StatusCode::UNAUTHORIZED,
        DocError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        DocError::Stale { .. } | DocError::Conflict { .. } => StatusCode::CONFLICT,
        DocError::EmptyTitle | DocError::TitleTooLong { .. } | DocError::Invalid(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        DocError::Unwritable(_) => StatusCode::SERVICE_UNAVAILABLE,
        DocError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl AppError {
    /// Maps a domain refusal to the page that explains it, keeping the user's form.
    pub fn from_doc(err: DocError, form: EditForm) -> Self {
        let form = Box::new(form);
        let status = doc_status(&err);
        match err {
            DocError::NotFound => Self::NotFound,
            DocError::Forbidden => Self::Form {
                status,
                message: "You may read this document but not change it. Your text is below; \
                          copy it, or ask the owner for edit access."
                    .into(),
                form,
            },
            DocError::Invalid(message) => Self::Form {
                status,
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
            DocError::TooLarge { .. }
            | DocError::EmptyTitle
            | DocError::TitleTooLong { .. }
            | DocError::AccountGone => Self::Form {
                status,
                message: err.to_string(),
                form,
            },
            DocError::Unwritable(what) => Self::Form {
                status,
                message: unwritable_text(what),
                form,
            },
            DocError::Internal(e) => Self::Internal(e),
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
         somewhere safe, and save again once the server's administrator has put it right \
         (what was saved before is intact)."
    )
}

/// A refusal where there is no form to give back (a link, a button).
impl From<DocError> for AppError {
    fn from(err: DocError) -> Self {
        match err {
            DocError::NotFound => Self::NotFound,
            DocError::Forbidden => Self::Forbidden(err.to_string()),
            DocError::Internal(e) => Self::Internal(e),
            DocError::Unwritable(what) => Self::Unavailable(what),
            other => Self::Refused {
                status: doc_status(&other),
                message: other.to_string(),
            },
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
            Self::Form { status, .. } | Self::Refused { status, .. } => *status,
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
                respond::message(status, "Something went wrong", INTERNAL_TEXT)
            }
            Self::NotFound => respond::message(status, "Not found", NOT_FOUND_TEXT),
            Self::Unavailable(what) => respond::message(
                status,
                "Not saved",
                &format!(
                    "{} — so quire could not write anything. Go back to keep what you typed, \
                     and try again once the server's administrator has put it right.",
                    capitalised(what)
                ),
            ),
            Self::Forbidden(why) => respond::message(status, "Not allowed", why),
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
            Self::BadRequest(why) => {
                respond::message(status, "That request was not understood", why)
            }
            Self::Refused { message, .. } => respond::message(status, "Not done", message),
            Self::UploadTooLarge { limit } => respond::message(
                status,
                "Too large",
                &format!(
                    "The form sent was larger than {} bytes, so quire did not read it. \
                     Your text is still in your browser: go back, shorten it and save again.",
                    crate::documents::group(*limit)
                ),
            ),
            Self::Form { message, form, .. } => EditPartial::of(form).error(message).page(status),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::api::ApiError;

    fn refusals() -> Vec<fn() -> DocError> {
        vec![
            || DocError::NotFound,
            || DocError::Forbidden,
            || DocError::TooLarge { size: 11, cap: 10 },
            || DocError::EmptyTitle,
            || DocError::TitleTooLong { chars: 201 },
            || DocError::Invalid("no".into()),
            || DocError::AccountGone,
            || DocError::Unwritable("the disk is full"),
            || DocError::Internal(anyhow::anyhow!("boom")),
        ]
    }

    /// A refusal has one status whether it meets the user in a form, on a
    /// button, or in the JSON API.
    #[test]
    fn pages_buttons_and_the_api_agree_on_every_status() {
        for make in refusals() {
            let want = doc_status(&make());
            let form = EditForm::new_document(10).with_text("t".into(), "b".into());
            let in_form = AppError::from_doc(make(), form).status_code();
            let on_button = AppError::from(make()).status_code();
            let in_api = ApiError::from(make()).status_code();
            assert_eq!(
                (in_form, on_button, in_api),
                (want, want, want),
                "{}",
                make()
            );
        }
        assert_eq!(
            doc_status(&DocError::TooLarge { size: 2, cap: 1 }),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }
}
