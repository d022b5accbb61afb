//! The trash: deleted documents wait here until restored or emptied for good.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::doc_view::DocView;
use super::form::FormData;
use super::list_page::DocRow;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{PageQuery, caller, parse_id};
use super::respond;
use super::{AppState, done};
use crate::documents::{self, Document};
use crate::web::error::AppError;

/// The trash's page: its rows, a page at a time.
#[derive(Template)]
#[template(path = "trash/list_partial.html")]
pub struct TrashPartial {
    pub rows: Vec<DocRow>,
    pub page: i64,
    pub more: bool,
}

pub async fn trash_list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, AppError> {
    let page = query.into_inner().page();
    let (rows, more) = documents::list_trash(&state.db, page, caller(&user)).await?;
    let partial = TrashPartial {
        rows: rows.iter().map(DocRow::from).collect(),
        page,
        more,
    };
    Ok(respond::fragment(StatusCode::OK, "Trash", &partial))
}

pub async fn document_restore(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    documents::restore(&state.db, &id, caller(&user)).await?;
    Ok(done(&req, &format!("/d/{id}"), Message::Restored))
}

#[derive(Template)]
#[template(path = "trash/confirm_empty_partial.html")]
struct ConfirmEmptyPartial;

/// Empties the trash once confirmed: by the dialog with JavaScript (the form
/// then carries `confirm=yes`), or else on a page that asks first.
pub async fn trash_empty(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    if form.get("confirm") != Some("yes") {
        return Ok(respond::fragment(
            StatusCode::OK,
            "Empty the trash?",
            &ConfirmEmptyPartial,
        ));
    }
    documents::empty_trash(&state.db, caller(&user)).await?;
    Ok(done(&req, "/trash", Message::TrashEmptied))
}

#[derive(Template)]
#[template(path = "trash/in_trash_partial.html")]
struct InTrashPartial {
    doc: DocView,
}

/// A link to a trashed document says so and offers to restore it (410 Gone).
pub fn in_trash_page(doc: &Document) -> HttpResponse {
    respond::fragment(
        StatusCode::GONE,
        &doc.title,
        &InTrashPartial {
            doc: DocView::from(doc),
        },
    )
}
