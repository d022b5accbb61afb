//! A document's discussion: the section under its page (`TalkView`), and the
//! forms that write to it. Each works as a plain form (a redirect back to the
//! comment, or the form again with the text kept and what was wrong); with
//! htmx the section is drawn again in place.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::error::{AppError, doc_status};
use super::form::FormData;
use super::message::Message;
use super::middleware::layout::wants_partial;
use super::middleware::session::CurrentUser;
use super::params::{actor, parse_id};
use super::talk_view::TalkView;
use super::{AppState, respond};
use crate::comments::{self, Draft};
use crate::documents::{DocError, DocId};

#[derive(Template)]
#[template(path = "comments/section_partial.html")]
struct SectionPartial {
    talk: TalkView,
}

/// A comment's form on a page of its own: writing one without JavaScript
/// after an error, or changing one's own.
#[derive(Template)]
#[template(path = "comments/form_partial.html")]
struct FormPartial {
    doc_id: String,
    /// Where the form posts.
    action: String,
    heading: String,
    error: Option<String>,
    body: String,
    quote: String,
    parent: Option<i64>,
}

fn draft(form: &FormData) -> Draft {
    Draft {
        body: form.get("body").unwrap_or_default().to_owned(),
        parent: form.get("parent").and_then(|p| p.trim().parse().ok()),
        quote: form.get("quote").map(str::to_owned),
    }
}

/// After a change: htmx gets the section drawn again and the message; a
/// plain form goes back to the page, at `anchor`.
async fn answer(
    req: &HttpRequest,
    state: &AppState,
    user: &CurrentUser,
    id: &DocId,
    anchor: &str,
    message: Message,
) -> Result<HttpResponse, AppError> {
    if !wants_partial(req.headers()) {
        let path = format!("/d/{id}?m={}#{anchor}", message.code());
        return Ok(HttpResponse::SeeOther()
            .insert_header((actix_web::http::header::LOCATION, path))
            .finish());
    }
    let d = comments::discussion(&state.db, id, actor(user)).await?;
    let talk = TalkView::new(id.as_str(), &d);
    let mut res = respond::fragment(StatusCode::OK, "Comments", &SectionPartial { talk });
    if let Ok(v) = format!(r#"{{"quire:flash":"{}"}}"#, message.text()).parse() {
        let name = actix_web::http::header::HeaderName::from_static("hx-trigger");
        res.headers_mut().insert(name, v);
    }
    Ok(res)
}

/// A refused comment: its text comes back with what was wrong (in the
/// section, for htmx; on a page of its own, without).
async fn refused(
    req: &HttpRequest,
    state: &AppState,
    user: &CurrentUser,
    id: &DocId,
    err: DocError,
    draft: Draft,
) -> Result<HttpResponse, AppError> {
    let status = doc_status(&err);
    let message = match err {
        DocError::NotFound => return Err(AppError::NotFound),
        DocError::Internal(e) => return Err(AppError::Internal(e)),
        DocError::Forbidden => "You may not do that here. Your text is below.".to_owned(),
        other => other.to_string(),
    };
    if wants_partial(req.headers()) && draft.parent.is_none() {
        let d = comments::discussion(&state.db, id, actor(user)).await?;
        let mut talk = TalkView::new(id.as_str(), &d);
        talk.error = Some(message);
        talk.body = draft.body;
        talk.quote = draft.quote.unwrap_or_default();
        // htmx swaps only a 2xx answer in; the error is in what it shows.
        return Ok(respond::fragment(
            StatusCode::OK,
            "Comments",
            &SectionPartial { talk },
        ));
    }
    let page = FormPartial {
        doc_id: id.to_string(),
        action: format!("/d/{id}/comments"),
        heading: "Your comment".to_owned(),
        error: Some(message),
        body: draft.body,
        quote: draft.quote.unwrap_or_default(),
        parent: draft.parent,
    };
    Ok(respond::fragment(status, "Your comment", &page))
}

pub async fn add(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let draft = draft(&form);
    match comments::add(&state.db, &id, actor(&user), &draft).await {
        Ok(cid) => {
            answer(
                &req,
                &state,
                &user,
                &id,
                &format!("comment-{cid}"),
                Message::Commented,
            )
            .await
        }
        Err(e) => refused(&req, &state, &user, &id, e, draft).await,
    }
}

/// The form that changes one's own comment.
pub async fn edit_form(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    let c = comments::one(&state.db, &id, cid, actor(&user)).await?;
    if !c.mine {
        return Err(AppError::Forbidden(
            "Only its author may change a comment.".into(),
        ));
    }
    let page = FormPartial {
        doc_id: id.to_string(),
        action: format!("/d/{id}/comments/{cid}"),
        heading: "Change your comment".to_owned(),
        error: None,
        body: c.body,
        quote: String::new(),
        parent: None,
    };
    Ok(respond::fragment(
        StatusCode::OK,
        "Change your comment",
        &page,
    ))
}

pub async fn edit(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    let body = form.get("body").unwrap_or_default();
    match comments::edit(&state.db, &id, cid, actor(&user), body).await {
        Ok(()) => {
            answer(
                &req,
                &state,
                &user,
                &id,
                &format!("comment-{cid}"),
                Message::CommentSaved,
            )
            .await
        }
        Err(DocError::NotFound) => Err(AppError::NotFound),
        Err(e) => {
            let page = FormPartial {
                doc_id: id.to_string(),
                action: format!("/d/{id}/comments/{cid}"),
                heading: "Change your comment".to_owned(),
                error: Some(e.to_string()),
                body: body.to_owned(),
                quote: String::new(),
                parent: None,
            };
            Ok(respond::fragment(
                doc_status(&e),
                "Change your comment",
                &page,
            ))
        }
    }
}

pub async fn delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    comments::delete(&state.db, &id, cid, actor(&user)).await?;
    answer(
        &req,
        &state,
        &user,
        &id,
        "comments",
        Message::CommentDeleted,
    )
    .await
}

pub async fn resolve(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let (id, cid) = path.into_inner();
    let id = parse_id(&id)?;
    let done = form.get("resolved") != Some("0");
    comments::resolve(&state.db, &id, cid, actor(&user), done).await?;
    let message = if done {
        Message::ThreadResolved
    } else {
        Message::ThreadReopened
    };
    answer(&req, &state, &user, &id, &format!("comment-{cid}"), message).await
}
