//! `POST /preview`: the editor's text rendered by the same renderer and sanitiser
//! as a save, stored nowhere. With JavaScript, the preview pane asks for it as the
//! user types and gets the HTML alone; without, the editor's Preview button posts
//! the whole form and gets the edit page back, text kept, preview filled in.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::AppState;
use super::editor::{EditForm, EditPartial};
use super::form::FormData;
use super::middleware::session::CurrentUser;
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
    // An edited document's images of its files show as they will once saved.
    let id = form.get("doc").and_then(DocId::parse);
    let body = form.get("body").unwrap_or_default().to_owned();
    // Measured as a save measures it (CRLF counts as one byte, as stored).
    let over = documents::stored_len(&body).saturating_sub(cap);
    let html = if over > 0 {
        None
    } else {
        Some(rendered(body, id.clone()).await?)
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
    let edit = EditForm::previewed(&form, id.as_ref(), cap)?;
    let (status, preview) = match html {
        Some(html) => (StatusCode::OK, html),
        None => (StatusCode::PAYLOAD_TOO_LARGE, too_large(over, cap)),
    };
    Ok(EditPartial::of(&edit).preview(preview).page(status))
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
