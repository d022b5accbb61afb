//! The JSON API for scripts: `Authorization: Bearer qt_...`, versions in `ETag` /
//! `If-Match`. Errors are JSON too, with the same rules as the pages: 404 for what
//! the token's user may not see, 403 for what they may only read, 412 for a stale
//! version, 413 over the size cap.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use serde::{Deserialize, Serialize};

use super::AppState;
use super::params::{PageQuery, actor};
use super::session::CurrentUser;
use crate::documents::{self, DocError, DocId, Document, Summary, Valid};

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
        let body = match self {
            Self::Status(_, m) => serde_json::json!({ "error": m }),
            Self::Stale { current_version } => serde_json::json!({
                "error": "The document changed since that version; fetch it and try again.",
                "current_version": current_version,
            }),
        };
        let mut res = HttpResponse::build(self.status_code());
        if let Self::Stale { current_version } = self {
            res.insert_header((header::ETAG, etag(*current_version)));
        }
        res.json(body)
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

fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

fn parse_id(raw: &str) -> Result<DocId, ApiError> {
    DocId::parse(raw).ok_or(ApiError::Status(
        StatusCode::NOT_FOUND,
        "No such document.".into(),
    ))
}

#[derive(Serialize)]
struct DocJson<'a> {
    id: &'a str,
    title: &'a str,
    body: &'a str,
    version: i64,
    created_at: i64,
    updated_at: i64,
}

fn doc_response(status: StatusCode, d: &Document) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::ETAG, etag(d.version)))
        .json(DocJson {
            id: &d.id,
            title: &d.title,
            body: &d.body,
            version: d.version,
            created_at: d.created_at,
            updated_at: d.updated_at,
        })
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    id: &'a str,
    title: &'a str,
    size: i64,
    updated_at: i64,
}

#[derive(Deserialize)]
pub struct DocInput {
    title: String,
    body: String,
}

pub async fn api_list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let (rows, more) =
        documents::list(&state.db, query.into_inner().page(), Some(actor(&user))).await?;
    let docs: Vec<SummaryJson> = rows
        .iter()
        .map(|s: &Summary| SummaryJson {
            id: &s.id,
            title: &s.title,
            size: s.size,
            updated_at: s.updated_at,
        })
        .collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({ "documents": docs, "more": more })))
}

pub async fn api_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    input: web::Json<DocInput>,
) -> Result<HttpResponse, ApiError> {
    let valid = Valid::parse(&input.title, &input.body, state.config.max_doc_bytes)?;
    let doc = documents::create(&state.db, valid, Some(actor(&user))).await?;
    let mut res = doc_response(StatusCode::CREATED, &doc);
    res.headers_mut().insert(
        header::LOCATION,
        header::HeaderValue::from_str(&format!("/api/v1/documents/{}", doc.id))
            .map_err(|e| ApiError::Status(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
    );
    Ok(res)
}

pub async fn api_get(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let doc = documents::get(&state.db, &parse_id(&id)?, Some(actor(&user))).await?;
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

pub async fn api_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<DocInput>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let base = if_match(&req)?;
    let valid = Valid::parse(&input.title, &input.body, state.config.max_doc_bytes)?;
    let doc = documents::update(&state.db, &id, base, valid, Some(actor(&user))).await?;
    Ok(doc_response(StatusCode::OK, &doc))
}

pub async fn api_delete(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    documents::trash(&state.db, &parse_id(&id)?, Some(actor(&user))).await?;
    Ok(HttpResponse::NoContent().finish())
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
