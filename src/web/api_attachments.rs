//! The JSON API's attachments: a document's files listed, uploaded and
//! downloaded with the pages' rules (read the document to list or download,
//! edit it to upload; the same size cap; the type sniffed from the bytes).

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::AppState;
use super::api::{ApiError, parse_id};
use super::api_types::{AttachmentJson, ErrorJson};
use super::error::AppError;
use super::middleware::limits::UploadBudget;
use super::middleware::session::CurrentUser;
use super::params::caller;
use crate::documents::DocError;
use crate::documents::attachments;

/// A document's files, by name.
#[derive(Serialize, ToSchema)]
#[schema(as = AttachmentList)]
pub struct AttachmentsJson {
    attachments: Vec<AttachmentJson>,
}

/// The upload: one file.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    file: Vec<u8>,
}

#[utoipa::path(
    get,
    path = "/api/v1/documents/{id}/attachments",
    operation_id = "listAttachments",
    tag = "documents",
    summary = "The files attached to a document the token's user may read",
    params(("id" = String, Path, description = "The document's id")),
    responses(
        (status = 200, body = AttachmentsJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_attachments(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let list = attachments::list(&state.db, &id, caller(&user)).await?;
    Ok(HttpResponse::Ok().json(AttachmentsJson {
        attachments: list
            .into_iter()
            .map(|f| AttachmentJson::of(id.as_str(), f))
            .collect(),
    }))
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/{id}/attachments",
    operation_id = "uploadAttachment",
    tag = "documents",
    summary = "Attaches a file to a document the token's user may edit",
    description = "The file is kept once per content (SHA-256). A name the document already \
        gives other content is numbered (`photo-2.png`). Its type is sniffed from its bytes.",
    params(("id" = String, Path, description = "The document's id")),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Attached", body = AttachmentJson),
        (status = 400, description = "Not a multipart form quire can read", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user may only read the document", body = ErrorJson),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
        (status = 413, description = "Larger than QUIRE_MAX_ATTACHMENT_BYTES", body = ErrorJson),
        (status = 422, description = "No file, or an empty one", body = ErrorJson),
        (status = 503, description = "The files being uploaded at once fill \
            QUIRE_UPLOAD_MEMORY_BYTES; nothing was kept: send it again after Retry-After seconds",
            body = ErrorJson, headers(("Retry-After" = u64))),
    )
)]
pub async fn api_attach(
    req: HttpRequest,
    state: web::Data<AppState>,
    uploads: web::Data<UploadBudget>,
    user: CurrentUser,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    // Refused before the body is read, as the pages refuse.
    attachments::check_editable(&state.db, &id, caller(&user)).await?;
    let cap = state.config.max_attachment_bytes;
    let bad = |e: AppError| ApiError::Status(StatusCode::BAD_REQUEST, e.to_string());
    // Held until the file is stored (or refused).
    let room = match uploads.reserve(&req, cap).await {
        Ok(room) => room,
        Err(busy) => {
            // Read to its end, keeping nothing, so the answer reaches the client.
            super::attachments::receive(form, 0, &[], 0, 0)
                .await
                .map_err(bad)?;
            return Ok(busy.json());
        }
    };
    let sent = super::attachments::receive(form, cap, &[], 0, room.bytes())
        .await
        .map_err(bad)?;
    let file = sent.file;
    let (name, bytes) = match file {
        None => {
            return Err(ApiError::Status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Send the file in the multipart field \"file\".".into(),
            ));
        }
        Some((_, None)) => {
            return Err(ApiError::Status(
                StatusCode::PAYLOAD_TOO_LARGE,
                super::attachments::too_large(cap),
            ));
        }
        Some((name, Some(bytes))) => (name, bytes),
    };
    let attached = attachments::attach(&state.db, &id, caller(&user), &name, bytes, cap).await?;
    Ok(HttpResponse::Created().json(AttachmentJson::from(attached)))
}

#[utoipa::path(
    delete,
    path = "/api/v1/documents/{id}/attachments/{name}",
    operation_id = "detachAttachment",
    tag = "documents",
    summary = "Takes a file off a document the token's user may edit",
    description = "The document's text is left as it is. The content is deleted when no \
        document has it any more.",
    params(
        ("id" = String, Path, description = "The document's id"),
        ("name" = String, Path, description = "The file's name, as the list gives it"),
    ),
    responses(
        (status = 204, description = "Taken off"),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user may only read the document", body = ErrorJson),
        (status = 404, description = "No such file, or its document is in the trash or not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_detach(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&path.0)?;
    let name = super::attachments::file_name(&req)
        .map_err(|_| ApiError::Status(StatusCode::NOT_FOUND, "No such file.".into()))?;
    attachments::detach(&state.db, &id, caller(&user), &name).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    get,
    path = "/api/v1/documents/{id}/attachments/{name}",
    operation_id = "downloadAttachment",
    tag = "documents",
    summary = "A file's bytes, with the type sniffed from them",
    params(
        ("id" = String, Path, description = "The document's id"),
        ("name" = String, Path, description = "The file's name, as the list gives it"),
    ),
    responses(
        (status = 200, description = "The bytes; anything but an image, a PDF or plain text as a download",
            content(
                (Vec<u8> = "application/octet-stream"),
                (Vec<u8> = "image/png"), (Vec<u8> = "image/jpeg"), (Vec<u8> = "image/gif"),
                (Vec<u8> = "image/webp"), (Vec<u8> = "image/avif"),
                (Vec<u8> = "application/pdf"), (String = "text/plain"),
            ),
            headers(("ETag" = String, description = "The SHA-256 of the bytes, quoted"))),
        (status = 304, description = "Unchanged since the ETag in If-None-Match"),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such file, or its document is not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_download(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&path.0)?;
    let not_found = || ApiError::Status(StatusCode::NOT_FOUND, "No such file.".into());
    let name = super::attachments::file_name(&req).map_err(|_| not_found())?;
    let file = attachments::find(&state.db, &id, caller(&user), &name)
        .await
        .map_err(|e| match e {
            DocError::NotFound => not_found(),
            e => e.into(),
        })?;
    super::attachments::serve(&req, &state, file)
        .await
        .map_err(|e| match e {
            AppError::NotFound => not_found(),
            e => {
                tracing::error!(error = ?e, "serving a file failed");
                ApiError::Status(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error; see the server log".into(),
                )
            }
        })
}
