//! The JSON API's comments: a document's discussion, read and written with
//! the same rules as its page (whoever may read the document may read them
//! and, unless its space keeps comments to editors, write them).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::api::{ApiError, parse_id};
use super::api_types::ErrorJson;
use super::middleware::session::CurrentUser;
use super::params::actor;
use crate::comments::{self, Comment, Draft};

/// One comment. A deleted comment with replies keeps its place, without text.
#[derive(Serialize, ToSchema)]
#[schema(as = Comment)]
pub struct CommentJson {
    id: i64,
    /// The thread's first comment, for a reply.
    parent: Option<i64>,
    author: String,
    /// Markdown.
    body: String,
    /// As the page shows it, sanitised.
    html: String,
    /// The passage of the document it was written about, as it was then.
    quote: Option<String>,
    /// Milliseconds since 1970.
    created_at: i64,
    edited_at: Option<i64>,
    deleted: bool,
    /// Who marked the thread resolved (first comments only).
    resolved_by: Option<String>,
    resolved_at: Option<i64>,
}

fn comment_id(raw: &str) -> Result<i64, ApiError> {
    super::api_spaces::id_in_path(raw, "No such comment.")
}

fn comment_json(c: &Comment, resolved: (Option<String>, Option<i64>)) -> CommentJson {
    CommentJson {
        id: c.id,
        parent: c.parent_id,
        author: c.author.clone(),
        body: c.body.clone(),
        html: c.html.clone(),
        quote: c.quote.clone(),
        created_at: c.created_at,
        edited_at: c.edited_at,
        deleted: c.deleted,
        resolved_by: resolved.0,
        resolved_at: resolved.1,
    }
}

/// A document's comments, oldest first, each thread's replies after it.
#[derive(Serialize, ToSchema)]
#[schema(as = CommentList)]
pub struct CommentsJson {
    comments: Vec<CommentJson>,
    /// Whether the token's user may comment here.
    may_comment: bool,
}

/// A new comment.
#[derive(Deserialize, ToSchema)]
#[schema(as = CommentInput)]
pub struct CommentInput {
    /// Markdown, at most 16 KiB.
    body: String,
    /// The comment it answers (a reply joins that comment's thread).
    parent: Option<i64>,
    /// The passage of the document it is about (kept up to 1,000 characters).
    quote: Option<String>,
}

/// A change to a comment: its text (its author only), or its thread resolved.
#[derive(Deserialize, ToSchema)]
#[schema(as = CommentChange)]
pub struct CommentChange {
    body: Option<String>,
    resolved: Option<bool>,
}

#[utoipa::path(
    get,
    path = "/api/v1/documents/{id}/comments",
    operation_id = "listComments",
    tag = "comments",
    summary = "A document's comments",
    params(("id" = String, Path, description = "The document's id")),
    responses(
        (status = 200, body = CommentsJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
    )
)]
pub async fn api_comments(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let d = comments::discussion(&state.db, &id, actor(&user)).await?;
    let mut out = Vec::new();
    for t in &d.threads {
        out.push(comment_json(
            &t.first,
            (t.resolved_by.clone(), t.resolved_at),
        ));
        out.extend(t.replies.iter().map(|r| comment_json(r, (None, None))));
    }
    Ok(HttpResponse::Ok().json(CommentsJson {
        comments: out,
        may_comment: d.may_comment,
    }))
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/{id}/comments",
    operation_id = "addComment",
    tag = "comments",
    summary = "Comments on a document (watchers and the people it @mentions are told)",
    params(("id" = String, Path, description = "The document's id")),
    request_body = CommentInput,
    responses(
        (status = 201, body = CommentJson),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such document, in the trash, or not readable by the token's user", body = ErrorJson),
        (status = 422, description = "Empty, over 16 KiB, answering a deleted comment, or comments here are for editors", body = ErrorJson),
    )
)]
pub async fn api_comment_add(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<CommentInput>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let input = input.into_inner();
    let draft = Draft {
        body: input.body,
        parent: input.parent,
        quote: input.quote,
    };
    let cid = comments::add(&state.db, &id, actor(&user), &draft).await?;
    let c = comments::one(&state.db, &id, cid, actor(&user)).await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(comment_json(&c, (None, None))))
}

#[utoipa::path(
    patch,
    path = "/api/v1/documents/{id}/comments/{comment}",
    operation_id = "changeComment",
    tag = "comments",
    summary = "Changes a comment's text (its author), or resolves its thread or opens it again (an editor, or its author)",
    params(
        ("id" = String, Path, description = "The document's id"),
        ("comment" = i64, Path, description = "The comment's id"),
    ),
    request_body = CommentChange,
    responses(
        (status = 200, body = CommentJson),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "Resolving a thread the token's user neither wrote nor may edit", body = ErrorJson),
        (status = 404, description = "No such comment or document for the token's user", body = ErrorJson),
        (status = 422, description = "Empty or over 16 KiB, another's comment, or a reply resolved alone", body = ErrorJson),
    )
)]
pub async fn api_comment_change(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
    input: web::Json<CommentChange>,
) -> Result<HttpResponse, ApiError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    let cid = comment_id(&cid)?;
    let who = actor(&user);
    if let Some(body) = &input.body {
        comments::edit(&state.db, &id, cid, who, body).await?;
    }
    if let Some(done) = input.resolved {
        comments::resolve(&state.db, &id, cid, who, done).await?;
    }
    let d = comments::discussion(&state.db, &id, who).await?;
    let found = d.threads.iter().find_map(|t| {
        if t.first.id == cid {
            return Some(comment_json(
                &t.first,
                (t.resolved_by.clone(), t.resolved_at),
            ));
        }
        t.replies
            .iter()
            .find(|r| r.id == cid)
            .map(|r| comment_json(r, (None, None)))
    });
    match found {
        Some(json) => Ok(HttpResponse::Ok().json(json)),
        None => Err(ApiError::Status(
            StatusCode::NOT_FOUND,
            "No such comment.".into(),
        )),
    }
}

#[utoipa::path(
    delete,
    path = "/api/v1/documents/{id}/comments/{comment}",
    operation_id = "deleteComment",
    tag = "comments",
    summary = "Deletes a comment (its author, or the document's owner)",
    params(
        ("id" = String, Path, description = "The document's id"),
        ("comment" = i64, Path, description = "The comment's id"),
    ),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "Another's comment on a document the token's user does not own", body = ErrorJson),
        (status = 404, description = "No such comment or document for the token's user", body = ErrorJson),
    )
)]
pub async fn api_comment_delete(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    let cid = comment_id(&cid)?;
    comments::delete(&state.db, &id, cid, actor(&user)).await?;
    Ok(HttpResponse::NoContent().finish())
}
