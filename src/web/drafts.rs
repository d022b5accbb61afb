//! Drafts over HTTP: the editor's autosave (htmx, and `navigator.sendBeacon` when
//! the page is hidden), discarding a draft, and the offer to restore one. Autosave
//! answers are small fragments for the editor's status line, never a page, so a
//! refusal can't replace the editor and the text in it.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{actor, caller, parse_id};
use super::when::{fmt_time, iso_time};
use super::{AppState, done};
use crate::documents::{self, DocError, Document, Draft, drafts};
use crate::web::error::AppError;

#[derive(Template)]
#[template(
    source = r#"<span class="{{ class }}">{{ text }}{% if let Some(t) = at %} <time datetime="{{ t.1 }}">{{ t.0 }}</time>{% endif %}</span>"#,
    ext = "html"
)]
struct Status<'a> {
    class: &'a str,
    text: &'a str,
    /// (shown, ISO 8601)
    at: Option<(String, String)>,
}

/// A status-line fragment. Not a `respond::fragment`: the layout must leave it
/// alone (no `<title>` for htmx to move into the head).
pub(super) fn status(code: StatusCode, class: &str, text: &str, at: Option<i64>) -> HttpResponse {
    let html = Status {
        class,
        text,
        at: at.map(|ms| (clock(ms), iso_time(ms))),
    }
    .render()
    .unwrap_or_else(|_| String::from("Draft status unavailable"));
    HttpResponse::build(code)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .body(html)
}

fn clock(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%H:%M:%S UTC").to_string())
        .unwrap_or_default()
}

/// `POST /d/{id}/draft` with the editor's `title`, `body` and `version`.
pub async fn draft_save(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: Result<FormData, AppError>,
) -> HttpResponse {
    let refused = |code: StatusCode, text: &str| status(code, "draft-failed", text, None);
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
    let Ok(id) = parse_id(&id) else {
        return refused(StatusCode::NOT_FOUND, "Draft not kept: no such document.");
    };
    let (Some(title), Some(body)) = (form.get("title"), form.get("body")) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "Draft not kept: the form lacks its text.",
        );
    };
    let version = form.version().unwrap_or(1);
    let kept = drafts::put(
        &state.db,
        &id,
        actor(&user),
        title,
        body,
        version,
        state.config.max_doc_bytes,
    )
    .await;
    match kept {
        Ok(draft) => status(
            StatusCode::OK,
            "draft-saved",
            "Draft kept",
            Some(draft.updated_at),
        ),
        Err(e) => {
            let status = super::error::doc_status(&e);
            let why = match &e {
                DocError::TooLarge { .. } => {
                    format!("Draft not kept. {e} Your text is still here.")
                }
                DocError::TitleTooLong { .. } => format!("Draft not kept. {e}"),
                DocError::Forbidden => {
                    "Draft not kept: you may read this document but not change it.".into()
                }
                DocError::NotFound => {
                    "Draft not kept: this document no longer exists or is in the trash.".into()
                }
                DocError::Unwritable(what) => {
                    format!("Draft not kept: {what}. Your text is still here.")
                }
                DocError::AccountGone => format!("Draft not kept. {e}"),
                _ => {
                    tracing::error!(error = ?e, "keeping a draft failed");
                    "Draft not kept: quire could not store it. Your text is still here.".into()
                }
            };
            refused(status, &why)
        }
    }
}

/// `POST /d/{id}/draft/discard`: back to the editor with the saved text.
pub async fn draft_discard(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    drafts::discard(&state.db, &id, actor(&user)).await?;
    Ok(done(&req, &format!("/d/{id}/edit"), Message::Discarded))
}

#[derive(Template)]
#[template(
    source = r#"{% if let Some(d) = draft %}<div class="banner warn draft-offer" role="region" aria-label="Unsaved changes"><p>You have unsaved changes to this document from <time datetime="{{ d.when_iso }}">{{ d.when }}</time>. <a href="/d/{{ id }}/edit" id="draft-open">Open the editor to restore or discard them</a>.</p></div>{% endif %}"#,
    ext = "html"
)]
struct OfferPartial<'a> {
    id: &'a str,
    draft: Option<DraftNote>,
}

/// `GET /d/{id}/draft`: the "you have unsaved changes" note a document page loads
/// after it is shown, so reading a document costs no extra query.
pub async fn draft_offer(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let doc = documents::get(&state.db, &id, caller(&user)).await?;
    let draft = match doc.access.may_edit() {
        true => drafts::offer(&state.db, &doc, actor(&user)).await?,
        false => None,
    };
    let html = OfferPartial {
        id: &doc.id,
        draft: draft.map(|d| note(&d, &doc, false)),
    }
    .render()
    .map_err(|e| AppError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .body(html))
}

/// An unsaved draft the editor offers back (or has just put back).
pub struct DraftNote {
    pub when: String,
    pub when_iso: String,
    pub base: i64,
    /// Someone saved since the draft's base version: saving it will merge.
    pub behind: bool,
    /// The editor already holds the draft's text.
    pub restored: bool,
}

pub fn note(d: &Draft, doc: &Document, restored: bool) -> DraftNote {
    DraftNote {
        when: fmt_time(d.updated_at),
        when_iso: iso_time(d.updated_at),
        base: d.base_version,
        behind: d.base_version < doc.version,
        restored,
    }
}
