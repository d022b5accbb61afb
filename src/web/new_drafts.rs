//! A new document's drafts over HTTP: the autosave of the editor of a document not
//! yet saved (`POST /new/draft`), the list of them offered back on the New page and
//! the document list (`GET /new/drafts`, loaded by htmx: drafts are made only by
//! the autosave, which needs JavaScript too), and discarding one.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::form::FormData;
use super::message::Message;
use super::middleware::layout;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::when::Stamp;
use super::{AppState, done};
use crate::documents::new_drafts::{self, NewDraft, Typed};
use crate::documents::{DocError, human_size};
use crate::web::error::AppError;

/// `POST /new/draft` with the editor's `draft_key`, `title`, `body`, `folder`, `tags`.
pub async fn save(
    state: web::Data<AppState>,
    user: CurrentUser,
    form: Result<FormData, AppError>,
) -> HttpResponse {
    let refused =
        |code: StatusCode, text: &str| super::drafts::status(code, "draft-failed", text, None);
    let form = match form {
        Ok(f) => f,
        Err(AppError::UploadTooLarge { .. }) => {
            return refused(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Draft not kept: the text is far over the size limit. It is still here; shorten it.",
            );
        }
        Err(_) => {
            return refused(
                StatusCode::BAD_REQUEST,
                "Draft not kept: the form was not readable.",
            );
        }
    };
    let (Some(key), Some(title), Some(body)) =
        (form.get("draft_key"), form.get("title"), form.get("body"))
    else {
        return refused(
            StatusCode::BAD_REQUEST,
            "Draft not kept: the form lacks its text.",
        );
    };
    let typed = Typed {
        key,
        title,
        body,
        folder: form.get("folder").unwrap_or_default(),
        tags: form.get("tags").unwrap_or_default(),
    };
    match new_drafts::put(&state.db, actor(&user), typed, state.config.max_doc_bytes).await {
        Ok(draft) => super::drafts::status(
            StatusCode::OK,
            "draft-saved",
            "Draft kept",
            Some(draft.updated_at),
        ),
        Err(e) => {
            let why = match &e {
                DocError::TooLarge { .. } => {
                    format!("Draft not kept. {e} Your text is still here.")
                }
                DocError::TitleTooLong { .. } | DocError::Invalid(_) | DocError::AccountGone => {
                    format!("Draft not kept. {e}")
                }
                DocError::Unwritable(what) => {
                    format!("Draft not kept: {what}. Your text is still here.")
                }
                _ => {
                    tracing::error!(error = ?e, "keeping a new document's draft failed");
                    "Draft not kept: quire could not store it. Your text is still here.".into()
                }
            };
            refused(super::error::doc_status(&e), &why)
        }
    }
}

/// One unsaved new document as the offer lists it.
struct Offer {
    key: String,
    title: String,
    words: String,
    when: Stamp,
}

impl Offer {
    fn of(d: NewDraft) -> Self {
        let title = d.title.trim();
        Self {
            title: if title.is_empty() {
                "Untitled".into()
            } else {
                title.to_owned()
            },
            words: human_size(d.body.len()),
            when: Stamp::at(d.updated_at),
            key: d.key,
        }
    }
}

#[derive(Template)]
#[template(path = "documents/new_drafts.html")]
struct Offers {
    drafts: Vec<Offer>,
}

#[derive(Deserialize)]
pub struct OffersQuery {
    /// The draft the asking editor is writing, left out of its own offer.
    except: Option<String>,
}

async fn offers_fragment(
    state: &AppState,
    user: &CurrentUser,
    except: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let drafts = new_drafts::offers(&state.db, actor(user))
        .await?
        .into_iter()
        .filter(|d| Some(d.key.as_str()) != except)
        .map(Offer::of)
        .collect();
    let html = Offers { drafts }
        .render()
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .body(html))
}

/// `GET /new/drafts`: the person's unsaved new documents, as a fragment.
pub async fn offers(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<OffersQuery>,
) -> Result<HttpResponse, AppError> {
    offers_fragment(&state, &user, query.except.as_deref()).await
}

/// `POST /new/draft/discard` with the draft's `key`: with htmx the offer again,
/// without it back to the New page.
pub async fn discard(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    if let Some(key) = new_drafts::key(form.get("key")) {
        new_drafts::remove(&state.db, actor(&user), &key).await?;
    }
    if layout::wants_partial(req.headers()) {
        return offers_fragment(&state, &user, None).await;
    }
    Ok(done(&req, "/new", Message::Discarded))
}
