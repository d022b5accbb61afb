//! `POST /preview`: the editor's text rendered by the same renderer and sanitiser
//! as a save, stored nowhere. With JavaScript, the preview pane asks for it as the
//! user types and gets the HTML alone; without, the editor's Preview button posts
//! the whole form and gets the edit page back, text kept, preview filled in.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::AppState;
use super::form::FormData;
use super::pages::{self, EditForm, EditPartial};
use super::session::CurrentUser;
use crate::documents::{self, DocId, render_page};
use crate::web::error::AppError;

/// The id of the pane that asks for the HTML alone.
const PANE: &str = "preview";

pub async fn preview(
    req: HttpRequest,
    state: web::Data<AppState>,
    _user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let cap = state.config.max_doc_bytes;
    let body = form.get("body").unwrap_or_default().to_owned();
    // Measured as a save measures it (CRLF counts as one byte, as stored).
    let over = documents::stored_len(&body).saturating_sub(cap);
    let html = if over > 0 {
        None
    } else {
        // An edited document's images of its files show as they will once saved.
        let doc = form.get("doc").and_then(DocId::parse);
        Some(rendered(body.clone(), doc).await?)
    };
    let pane = req
        .headers()
        .get("hx-target")
        .is_some_and(|t| t.as_bytes() == PANE.as_bytes());
    if pane {
        return Ok(match html {
            Some(html) => HttpResponse::Ok()
                .content_type("text/html; charset=utf-8")
                .body(html),
            None => HttpResponse::PayloadTooLarge()
                .content_type("text/html; charset=utf-8")
                .body(too_large(over, cap)),
        });
    }
    let id = form.get("doc").and_then(DocId::parse);
    let edit = EditForm {
        version: match &id {
            Some(_) => form.version()?,
            None => 1,
        },
        id: id.map(|i| i.to_string()),
        title: form.get("title").unwrap_or_default().to_owned(),
        body,
        cap,
        place: super::place_fields::PlaceFields::sent(form.get("folder"), form.get("tags")),
        draft_key: crate::documents::new_drafts::key(form.get("draft_key")),
    };
    let title = if edit.id.is_some() {
        "Edit document"
    } else {
        "New document"
    };
    let (status, preview) = match html {
        Some(html) => (StatusCode::OK, html),
        None => (StatusCode::PAYLOAD_TOO_LARGE, too_large(over, cap)),
    };
    Ok(pages::fragment(
        status,
        title,
        &EditPartial {
            form: &edit,
            error: None,
            notice: None,
            files: Vec::new(),
            draft: None,
            preview: Some(preview),
        },
    ))
}

/// Rendering a long text takes milliseconds: off the worker that serves pages.
async fn rendered(body: String, doc: Option<DocId>) -> Result<String, AppError> {
    if body.trim().is_empty() {
        return Ok(r#"<p class="preview-note">Nothing to preview yet.</p>"#.to_owned());
    }
    web::block(move || render_page(&body, doc.as_ref().map(DocId::as_str)))
        .await
        .map_err(|e| AppError::Internal(e.into()))
}

fn too_large(over: usize, cap: usize) -> String {
    format!(
        r#"<p class="preview-note">No preview: the text is {over} bytes over the limit of {cap} bytes. Shorten it or split it.</p>"#
    )
}
