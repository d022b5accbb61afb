//! A document's files over HTTP: attaching one (`POST /d/{id}/attachments`,
//! from the editor's script or, without JavaScript, from the editor's own form)
//! and serving them (`GET /d/{id}/files/{name}`, `GET /p/{token}/files/{name}`)
//! with the content type their bytes were sniffed as, never the name's.

use std::collections::HashMap;

use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt;

use super::AppState;
use super::api_types::AttachmentJson;
use super::editor::{EditForm, EditPartial};
use super::error::{AppError, doc_status};
use super::form::FormData;
use super::middleware::limits::{UploadBudget, UploadBusy};
use super::middleware::session::CurrentUser;
use super::params::{caller, parse_id};
use crate::documents::attachments::{self, FileInfo};
use crate::documents::{DocError, DocId, human_size};

/// What an upload sent: the file (name and bytes, `None` when too large) and
/// the other fields (the editor's, when sent from its form without JavaScript).
pub(super) struct Sent {
    pub(super) file: Option<(String, Option<Vec<u8>>)>,
    fields: HashMap<String, String>,
}

fn upload_failed(e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(format!("The upload failed: {e}"))
}

/// The editor's fields an upload may carry; any other is read and dropped.
const EDITOR_FIELDS: &[&str] = &["csrf", "doc", "title", "body", "folder", "tags", "version"];

/// Reads the form: the `file` field up to `cap` bytes (the rest is read and
/// dropped, so the answer reaches the browser), the fields named in `keep` up
/// to `field_cap` each, nothing of any other. `room` is what the upload may
/// hold (`UploadRoom::bytes`), so the file's buffer is sized once.
pub(super) async fn receive(
    mut form: Multipart,
    cap: usize,
    keep: &[&str],
    field_cap: usize,
    room: usize,
) -> Result<Sent, AppError> {
    let mut sent = Sent {
        file: None,
        fields: HashMap::new(),
    };
    while let Some(field) = form.next().await {
        let mut field = field.map_err(upload_failed)?;
        let name = field.name().unwrap_or_default().to_owned();
        let kept = name == "file" || keep.contains(&name.as_str());
        if !kept || sent.fields.contains_key(&name) {
            while let Some(chunk) = field.next().await {
                chunk.map_err(upload_failed)?;
            }
            continue;
        }
        let (limit, size) = match name.as_str() {
            "file" => (cap, room.min(cap)),
            _ => (field_cap, 0),
        };
        let mut bytes = Some(Vec::with_capacity(size));
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(upload_failed)?;
            if let Some(b) = &mut bytes {
                if b.len() + chunk.len() > limit {
                    bytes = None;
                } else {
                    b.extend_from_slice(&chunk);
                }
            }
        }
        if name == "file" {
            let given = field
                .content_disposition()
                .and_then(|d| d.get_filename())
                .unwrap_or_default()
                .to_owned();
            if sent.file.is_none() {
                sent.file = Some((given, bytes));
            }
        } else {
            let Some(bytes) = bytes else {
                return Err(AppError::BadRequest(format!(
                    "The form's \"{name}\" field is too long."
                )));
            };
            let text = String::from_utf8(bytes).map_err(|_| {
                AppError::BadRequest(format!("The form's \"{name}\" field is not UTF-8 text."))
            })?;
            sent.fields.entry(name).or_insert(text);
        }
    }
    Ok(sent)
}

pub(super) fn too_large(cap: usize) -> String {
    format!(
        "That file is larger than {} (the most quire attaches to a document), so it was \
         not attached.",
        human_size(cap)
    )
}

fn refusal(e: &DocError) -> String {
    match e {
        DocError::NotFound => "No such document, or it is in the trash.".into(),
        DocError::Forbidden => "You may read this document but not attach files to it.".into(),
        other => other.to_string(),
    }
}

/// `POST /d/{id}/attachments`: from the editor's script, the file alone
/// (answered with JSON: the name, the URL and the Markdown to insert); from
/// the editor's form without JavaScript, the file with the text, which comes
/// back in the editor with the Markdown added at its end, unsaved. A refusal
/// keeps the text too.
pub async fn attach(
    req: HttpRequest,
    state: web::Data<AppState>,
    uploads: web::Data<UploadBudget>,
    user: CurrentUser,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    // Who may not attach sends no file quire keeps (the editor's text still
    // comes back to them with the reason), so takes no room for one either.
    let allowed = match attachments::check_editable(&state.db, &id, caller(&user)).await {
        Err(DocError::Internal(e)) => return Err(AppError::Internal(e)),
        other => other,
    };
    let field_cap = state.config.max_doc_bytes + 64 * 1024;
    let room = match allowed {
        Ok(()) => {
            let most = state.config.max_attachment_bytes + field_cap;
            uploads.reserve(&req, most).await.map(Some)
        }
        Err(_) => Ok(None),
    };
    let (cap, held) = match &room {
        Ok(Some(room)) => (state.config.max_attachment_bytes, room.bytes()),
        _ => (0, 0),
    };
    let sent = receive(form, cap, EDITOR_FIELDS, field_cap, held).await?;
    if let Err(e) = allowed {
        if let Some(mine) = editor_text(&state, &id, sent.fields)? {
            return Err(refuse(doc_status(&e), refusal(&e), mine));
        }
        let status = doc_status(&e);
        return Ok(HttpResponse::build(status).json(serde_json::json!({ "error": refusal(&e) })));
    }
    // Held until the file is stored (or refused).
    let _room = match room {
        Ok(room) => room,
        Err(busy) => {
            let busy_text = UploadBusy::MESSAGE.to_owned();
            return Ok(match editor_text(&state, &id, sent.fields)? {
                Some(mine) => busy.page(refuse(StatusCode::SERVICE_UNAVAILABLE, busy_text, mine)),
                None => busy.json(),
            });
        }
    };
    if let Some(mine) = editor_text(&state, &id, sent.fields)? {
        return editor_attach(&state, &user, &id, sent.file, mine).await;
    }
    let cap = state.config.max_attachment_bytes;
    let outcome = match sent.file {
        None => Err((
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a file to attach.".to_owned(),
        )),
        Some((_, None)) => Err((StatusCode::PAYLOAD_TOO_LARGE, too_large(cap))),
        Some((name, Some(bytes))) => {
            match attachments::attach(&state.db, &id, caller(&user), &name, bytes, cap).await {
                Ok(attached) => Ok(attached),
                Err(DocError::Internal(e)) => return Err(AppError::Internal(e)),
                Err(e) => Err((doc_status(&e), refusal(&e))),
            }
        }
    };
    Ok(match outcome {
        Ok(attached) => HttpResponse::Created().json(AttachmentJson::from(attached)),
        Err((status, message)) => {
            HttpResponse::build(status).json(serde_json::json!({ "error": message }))
        }
    })
}

/// The editor's text, when the upload came from its form (without JavaScript).
fn editor_text(
    state: &AppState,
    id: &DocId,
    fields: HashMap<String, String>,
) -> Result<Option<EditForm>, AppError> {
    if !fields.contains_key("body") {
        return Ok(None);
    }
    let form = FormData::from_fields(fields);
    EditForm::sent(&form, Some(id), state.config.max_doc_bytes).map(Some)
}

/// The editor again with the user's text and why nothing was done.
fn refuse(status: StatusCode, message: String, form: EditForm) -> AppError {
    AppError::Form {
        status,
        message: format!("{message} Your text is below, not saved yet."),
        form: Box::new(form),
    }
}

/// The editor again with the user's text (not saved), the document's files
/// and what was done.
async fn editor_again(
    state: &AppState,
    user: &CurrentUser,
    id: &DocId,
    mine: &EditForm,
    notice: &str,
) -> Result<HttpResponse, AppError> {
    let files = attachments::list(&state.db, id, caller(user))
        .await?
        .iter()
        .map(|f| super::editor::FileView::of(id.as_str(), f))
        .collect();
    Ok(EditPartial::of(mine)
        .notice(notice)
        .files(files)
        .page(StatusCode::OK))
}

/// `POST /d/{id}/attachments/remove` from the editor's form (its Remove
/// button, naming the file in `remove`): the file is taken off the document
/// and the editor comes back with the text as it was, unsaved.
pub async fn remove(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let mine = EditForm::sent(&form, Some(&id), state.config.max_doc_bytes)?;
    let name = form.require("remove")?.to_owned();
    match attachments::detach(&state.db, &id, caller(&user), &name).await {
        Ok(()) => {}
        Err(DocError::Internal(e)) => return Err(AppError::Internal(e)),
        Err(DocError::NotFound) => {
            let message = format!("This document has no file called {name}.");
            return Err(refuse(StatusCode::NOT_FOUND, message, mine));
        }
        Err(e) => return Err(refuse(doc_status(&e), refusal(&e), mine)),
    }
    let notice = format!(
        "Removed {name} from the document. An image of it in the text shows nothing now;          take it out of the text and save."
    );
    editor_again(&state, &user, &id, &mine, &notice).await
}

/// The no-JavaScript path: the editor again, with the file's Markdown added to
/// the text (not saved yet) or the reason it was not attached.
async fn editor_attach(
    state: &AppState,
    user: &CurrentUser,
    id: &DocId,
    file: Option<(String, Option<Vec<u8>>)>,
    mut mine: EditForm,
) -> Result<HttpResponse, AppError> {
    let cap = state.config.max_attachment_bytes;
    let (name, bytes) = match file {
        Some((name, Some(bytes))) if !bytes.is_empty() => (name, bytes),
        Some((_, None)) => return Err(refuse(StatusCode::PAYLOAD_TOO_LARGE, too_large(cap), mine)),
        _ => {
            let message = "Choose a file to attach first.".to_owned();
            return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, message, mine));
        }
    };
    let attached = match attachments::attach(&state.db, id, caller(user), &name, bytes, cap).await {
        Ok(a) => a,
        Err(DocError::Internal(e)) => return Err(AppError::Internal(e)),
        Err(e) => return Err(refuse(doc_status(&e), refusal(&e), mine)),
    };
    if !mine.body.is_empty() && !mine.body.ends_with('\n') {
        mine.body.push('\n');
    }
    mine.body.push('\n');
    mine.body.push_str(&attached.markdown);
    mine.body.push('\n');
    let notice = format!(
        "Attached {} ({}). Its Markdown is at the end of the text: save to keep it there.",
        attached.name,
        human_size(attached.size as usize)
    );
    editor_again(state, user, id, &mine, &notice).await
}

/// `GET /d/{id}/files/{name}`: the file, to whoever may read the document.
pub async fn file_get(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&path.0)?;
    let name = file_name(&req)?;
    let file = attachments::find(&state.db, &id, caller(&user), &name).await?;
    serve(&req, &state, file).await
}

/// `GET /p/{token}/files/{name}`: a public page's file, to anyone with its link.
pub async fn public_file_get(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let name = file_name(&req)?;
    let file = attachments::find_public(&state.db, &path.0, &name).await?;
    serve(&req, &state, file).await
}

/// The name from the address: the router leaves `%2F`, `%25` and the like
/// encoded, so it is decoded once more, whole.
pub(super) fn file_name(req: &HttpRequest) -> Result<String, AppError> {
    let raw = req.match_info().get("name").unwrap_or_default();
    percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()
        .filter(|n| attachments::plausible_name(n))
        .map(|n| n.into_owned())
        .ok_or(AppError::NotFound)
}

pub(super) async fn serve(
    req: &HttpRequest,
    state: &AppState,
    file: FileInfo,
) -> Result<HttpResponse, AppError> {
    let etag = format!("\"{}\"", crate::transfer::hex(&file.hash));
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == etag || t == "*")
        });
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    // Asked again each time (a cheap 304 with the ETag), so a file stops
    // showing as soon as its reader may no longer read the document.
    res.insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    // Nothing a file holds may run as quire's: no script, no forms, its own
    // origin. (Browsers' PDF viewers do not open in a sandbox.)
    if file.media_type != "application/pdf" {
        res.insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        ));
    }
    let base = file.name.rsplit('/').next().unwrap_or(&file.name);
    let encoded = percent_encoding::utf8_percent_encode(base, percent_encoding::NON_ALPHANUMERIC);
    let shown = file.media_type.as_str();
    if shown.is_empty() {
        res.content_type("application/octet-stream").insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename*=UTF-8''{encoded}"),
        ));
    } else {
        res.content_type(shown).insert_header((
            header::CONTENT_DISPOSITION,
            format!("inline; filename*=UTF-8''{encoded}"),
        ));
    }
    if fresh {
        return Ok(res.finish());
    }
    let bytes = attachments::content(&state.db, &file).await?;
    Ok(res.body(bytes))
}
