//! Suggested edits on the web: the form that makes one (`/d/{id}/suggest`),
//! the page that reviews one against the current text, and accepting or
//! declining it. Plain forms, with or without JavaScript.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::editor::EditForm;
use super::error::{AppError, doc_status};
use super::form::FormData;
use super::history::DiffRow;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{actor, caller, parse_id};
use super::when::{fmt_time, iso_time};
use super::{AppState, done, respond};
use crate::documents::{self, DocError, Valid};
use crate::suggestions::{self, Suggestion};

#[derive(Template)]
#[template(path = "suggestions/form_partial.html")]
struct FormPartial {
    id: String,
    doc_title: String,
    base: i64,
    title: String,
    body: String,
    note: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "suggestions/review_partial.html")]
struct ReviewPartial {
    id: String,
    doc_title: String,
    version: i64,
    s: Suggestion,
    when: String,
    when_iso: String,
    summary: String,
    title_changed: bool,
    rows: Vec<DiffRow>,
    may_decide: bool,
}

pub async fn suggest_form(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let doc = documents::get(&state.db, &id, caller(&user)).await?;
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    let page = FormPartial {
        id: doc.id.clone(),
        doc_title: doc.title.clone(),
        base: doc.version,
        title: doc.title,
        body: doc.body,
        note: String::new(),
        error: None,
    };
    Ok(respond::fragment(StatusCode::OK, "Suggest an edit", &page))
}

pub async fn suggest(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let (title, body) = (
        form.get("title").unwrap_or_default(),
        form.get("body").unwrap_or_default(),
    );
    let note = form.get("note").unwrap_or_default();
    // The suggest form names its base `base`; the editor's "Suggest instead", `version`.
    let base: i64 = form
        .get("base")
        .or_else(|| form.get("version"))
        .and_then(|b| b.trim().parse().ok())
        .unwrap_or(0);
    let made = match Valid::parse(title, body, state.config.max_doc_bytes) {
        Ok(text) => suggestions::suggest(&state.db, &id, actor(&user), base, &text, note).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(sid) => Ok(done(
            &req,
            &format!("/d/{id}/suggestions/{sid}"),
            Message::Suggested,
        )),
        Err(DocError::NotFound) => Err(AppError::NotFound),
        Err(DocError::Internal(e)) => Err(AppError::Internal(e)),
        Err(e) => {
            let doc_title = documents::get(&state.db, &id, caller(&user))
                .await
                .map(|d| d.title)
                .unwrap_or_default();
            let page = FormPartial {
                id: id.to_string(),
                doc_title,
                base,
                title: title.to_owned(),
                body: body.to_owned(),
                note: note.to_owned(),
                error: Some(e.to_string()),
            };
            Ok(respond::fragment(doc_status(&e), "Suggest an edit", &page))
        }
    }
}

pub async fn review(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, sid) = path.into_inner();
    let id = parse_id(&id)?;
    let r = suggestions::review(&state.db, &id, sid, actor(&user)).await?;
    let summary = match (r.added, r.removed) {
        (0, 0) => "no line changed".to_owned(),
        (added, removed) => format!("+{added} −{removed} lines against the current text"),
    };
    let page = ReviewPartial {
        id: r.doc.id.clone(),
        doc_title: r.doc.title.clone(),
        version: r.doc.version,
        when: fmt_time(r.suggestion.created_at),
        when_iso: iso_time(r.suggestion.created_at),
        s: r.suggestion,
        summary,
        title_changed: r.title_changed,
        rows: r.lines.into_iter().map(DiffRow::from).collect(),
        may_decide: r.may_decide,
    };
    Ok(respond::fragment(StatusCode::OK, "Suggested edit", &page))
}

pub async fn accept(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, sid) = path.into_inner();
    let id = parse_id(&id)?;
    let cap = state.config.max_doc_bytes;
    match suggestions::accept(&state.db, &id, sid, actor(&user), cap).await {
        Ok(_) => Ok(done(&req, &format!("/d/{id}"), Message::SuggestionAccepted)),
        // Overlapping changes: the merge view, with the suggestion as "yours".
        Err(e @ (DocError::Conflict { .. } | DocError::Stale { .. })) => {
            let r = suggestions::review(&state.db, &id, sid, actor(&user)).await?;
            let mine = EditForm {
                id: Some(id.to_string()),
                title: r.suggestion.title,
                body: r.suggestion.body,
                version: r.suggestion.base_version,
                cap,
                place: None,
                draft_key: None,
                from_template: None,
            };
            Err(AppError::from_doc(e, mine))
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn decline(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let (id, sid) = path.into_inner();
    let id = parse_id(&id)?;
    let answer = form.get("answer").unwrap_or_default();
    suggestions::decline(&state.db, &id, sid, actor(&user), answer).await?;
    Ok(done(
        &req,
        &format!("/d/{id}/suggestions/{sid}"),
        Message::SuggestionDeclined,
    ))
}
