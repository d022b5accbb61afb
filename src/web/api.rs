//! The JSON API for scripts: `Authorization: Bearer qt_...`, versions in `ETag` /
//! `If-Match`. Errors are JSON too, with the same rules as the pages: 404 for what
//! the token's user may not see, 403 for what they may only read, 412 for a stale
//! version, 413 over the size cap.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};

use super::AppState;
pub use super::api_types::{DocInput, DocJson, ErrorJson, ListJson, StaleJson, SummaryJson};
use super::api_types::{doc_response, etag};
use super::middleware::session::CurrentUser;
use super::params::{ListQuery, caller};
use crate::documents::{self, DocError, DocId, OnStale};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{1}")]
    Status(StatusCode, String),
    #[error("the version has changed")]
    Stale { current_version: i64 },
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Status(s, _) => *s,
            Self::Stale { .. } => StatusCode::PRECONDITION_FAILED,
        }
    }
    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        if self.status_code() == StatusCode::UNAUTHORIZED {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        match self {
            Self::Status(_, m) => res.json(ErrorJson { error: m.clone() }),
            Self::Stale { current_version } => res
                .insert_header((header::ETAG, etag(*current_version)))
                .json(StaleJson {
                    error: "The document changed since that version; fetch it and try again."
                        .into(),
                    current_version: *current_version,
                }),
        }
    }
}

/// The pages' mapping (`doc_status`), but for `If-Match`: a save over a version
/// that is no longer current is 412 Precondition Failed, with the current ETag.
impl From<DocError> for ApiError {
    fn from(e: DocError) -> Self {
        match e {
            DocError::Stale { current } | DocError::Conflict { current, .. } => Self::Stale {
                current_version: current.version,
            },
            DocError::Internal(err) => {
                tracing::error!(error = ?err, "api request failed");
                Self::Status(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error; see the server log".into(),
                )
            }
            other => Self::Status(super::error::doc_status(&other), other.to_string()),
        }
    }
}

pub(super) fn parse_id(raw: &str) -> Result<DocId, ApiError> {
    DocId::parse(raw).ok_or(ApiError::Status(
        StatusCode::NOT_FOUND,
        "No such document.".into(),
    ))
}

#[utoipa::path(
    get,
    path = "/api/v1/documents",
    operation_id = "listDocuments",
    tag = "documents",
    summary = "The documents the token's user may read, 50 a page, most recently changed first unless sorted otherwise",
    params(ListQuery),
    responses(
        (status = 200, body = ListJson),
        (status = 400, description = "A malformed query", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
    )
)]
pub async fn api_list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page();
    let listing = query
        .listing()
        .map_err(|e| ApiError::Status(StatusCode::BAD_REQUEST, e))?;
    let (rows, total) = documents::list(&state.db, page, &listing, caller(&user)).await?;
    let documents = rows.iter().map(SummaryJson::of).collect();
    Ok(HttpResponse::Ok().json(ListJson {
        documents,
        total,
        more: documents::more_after(page, total),
    }))
}

#[utoipa::path(
    post,
    path = "/api/v1/documents",
    operation_id = "createDocument",
    tag = "documents",
    summary = "A new document, owned by the token's user",
    request_body = DocInput,
    responses(
        (status = 201, description = "Made", body = DocJson,
            headers(
                ("ETag" = String, description = "The version, quoted: send it back in `If-Match`"),
                ("Location" = String, description = "The document's address in the API"),
            ),
            links(
                ("get" = (operation_id = "getDocument", parameters(("path.id" = "$response.body#/id")))),
                ("update" = (operation_id = "updateDocument", parameters(("path.id" = "$response.body#/id"), ("header.If-Match" = "$response.header.ETag")))),
                ("delete" = (operation_id = "deleteDocument", parameters(("path.id" = "$response.body#/id")))),
            )),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 413, description = "The text is over the server's size cap (the message says by how much)", body = ErrorJson),
        (status = 422, description = "The title is empty or too long, or the space is not one the user may write in", body = ErrorJson),
    )
)]
pub async fn api_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    input: web::Json<DocInput>,
) -> Result<HttpResponse, ApiError> {
    let valid = input.valid(state.config.max_doc_bytes)?;
    let space = match input.space {
        None => None,
        Some(0) => Some(documents::InSpace::Personal),
        Some(n) => Some(documents::InSpace::Id(n)),
    };
    let doc = documents::create_in(&state.db, valid, caller(&user), space).await?;
    let mut res = doc_response(StatusCode::CREATED, &doc);
    res.headers_mut().insert(
        header::LOCATION,
        header::HeaderValue::from_str(&format!("/api/v1/documents/{}", doc.id))
            .map_err(|e| ApiError::Status(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
    );
    Ok(res)
}

#[utoipa::path(
    get,
    path = "/api/v1/documents/{id}",
    operation_id = "getDocument",
    tag = "documents",
    summary = "A document the token's user may read",
    params(("id" = String, Path, description = "The document's id")),
    responses(
        (status = 200, description = "The document", body = DocJson,
            headers(("ETag" = String, description = "The version, quoted: send it back in `If-Match`")),
            links(
                ("update" = (operation_id = "updateDocument", parameters(("path.id" = "$response.body#/id"), ("header.If-Match" = "$response.header.ETag")))),
                ("delete" = (operation_id = "deleteDocument", parameters(("path.id" = "$response.body#/id")))),
            )),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_get(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let doc = documents::get(&state.db, &parse_id(&id)?, caller(&user)).await?;
    if doc.deleted_at.is_some() {
        return Err(DocError::NotFound.into());
    }
    Ok(doc_response(StatusCode::OK, &doc))
}

fn if_match(req: &HttpRequest) -> Result<i64, ApiError> {
    let raw = req
        .headers()
        .get(header::IF_MATCH)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            ApiError::Status(
                StatusCode::PRECONDITION_REQUIRED,
                "Send If-Match with the version you edited (the ETag of the GET).".into(),
            )
        })?;
    raw.trim()
        .trim_start_matches("W/")
        .trim_matches('"')
        .parse()
        .map_err(|_| ApiError::Status(StatusCode::BAD_REQUEST, "If-Match is not a version.".into()))
}

#[utoipa::path(
    put,
    path = "/api/v1/documents/{id}",
    operation_id = "updateDocument",
    tag = "documents",
    summary = "Saves a new version over the one in If-Match",
    params(
        ("id" = String, Path, description = "The document's id"),
        ("If-Match" = String, Header, pattern = r#"^(W/)?"[0-9]{1,18}"$"#,
            description = "The `ETag` of the version the change was made to"),
    ),
    request_body = DocInput,
    responses(
        (status = 200, description = "Saved: the new version", body = DocJson,
            headers(("ETag" = String, description = "The version, quoted: send it back in `If-Match`")),
            links(
                ("update" = (operation_id = "updateDocument", parameters(("path.id" = "$response.body#/id"), ("header.If-Match" = "$response.header.ETag")))),
                ("delete" = (operation_id = "deleteDocument", parameters(("path.id" = "$response.body#/id")))),
            )),
        (status = 400, description = "The body is not JSON of this shape, or If-Match is not a version", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user may read the document but not change it", body = ErrorJson),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
        (status = 412, description = "The document changed since that version: nothing was saved", body = StaleJson,
            headers(("ETag" = String, description = "The version now"))),
        (status = 413, description = "The text is over the server's size cap", body = ErrorJson),
        (status = 422, description = "The title is empty or too long", body = ErrorJson),
        (status = 428, description = "No If-Match", body = ErrorJson),
    )
)]
pub async fn api_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<DocInput>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let base = if_match(&req)?;
    let valid = input.valid(state.config.max_doc_bytes)?;
    let who = caller(&user);
    let saved = documents::save(&state.db, &id, base, valid, OnStale::Refuse, who).await?;
    Ok(doc_response(StatusCode::OK, &saved.doc))
}

#[utoipa::path(
    delete,
    path = "/api/v1/documents/{id}",
    operation_id = "deleteDocument",
    tag = "documents",
    summary = "Moves a document to the trash (its owner may restore it from there)",
    params(("id" = String, Path, description = "The document's id")),
    responses(
        (status = 204, description = "In the trash"),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user may read the document but not delete it", body = ErrorJson),
        (status = 404, description = "No such document, already in the trash, or not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_delete(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    documents::trash(&state.db, &parse_id(&id)?, caller(&user)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A malformed query (`?page=x`) is a 400 in JSON, as every API error is.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|e, _| {
        ApiError::Status(
            StatusCode::BAD_REQUEST,
            format!("The address has a malformed query: {e}"),
        )
        .into()
    })
}

/// JSON bodies: size-limited just above the cap, errors as JSON.
pub fn json_config(cap: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(cap * 2 + 64 * 1024)
        .error_handler(|e, _| {
            let status = match &e {
                actix_web::error::JsonPayloadError::Overflow { .. }
                | actix_web::error::JsonPayloadError::OverflowKnownLength { .. } => {
                    StatusCode::PAYLOAD_TOO_LARGE
                }
                _ => StatusCode::BAD_REQUEST,
            };
            ApiError::Status(status, format!("The request body is not usable JSON: {e}")).into()
        })
}
