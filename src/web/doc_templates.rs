//! Templates on the web: a document's template page (`/d/{id}/template`: mark
//! it a template, and for a space's managers, the places whose new documents
//! start from it), and what the New page offers (`StartOffer`).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::error::AppError;
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{actor, parse_id};
use super::spaces::manager;
use super::{AppState, done, respond};
use crate::query_param::encoded;
use crate::templates::{self, Start, TemplateRow};

/// What the New page offers: the template the text started from, if any, and
/// the templates the person may read.
pub struct StartOffer {
    /// (id, title) of the template the text started from.
    pub from: Option<(String, String)>,
    /// (id, title, where it is).
    pub offered: Vec<(String, String, String)>,
    /// The New page's own parameters (space, folder, title), for its links.
    pub here: String,
}

impl StartOffer {
    pub fn new(start: Option<&Start>, offered: Vec<TemplateRow>, here: String) -> Self {
        Self {
            from: start.map(|s| (s.id.clone(), s.title.clone())),
            offered: offered
                .into_iter()
                .map(|t| {
                    let place = [t.space_name.unwrap_or_default(), t.folder]
                        .into_iter()
                        .filter(|p| !p.is_empty())
                        .collect::<Vec<_>>()
                        .join(" / ");
                    (t.id, t.title, place)
                })
                .collect(),
            here,
        }
    }

    /// Whether the list is short enough to show opened.
    pub fn open(&self) -> bool {
        self.from.is_none() && self.offered.len() <= 8
    }
}

/// The New page's parameters as a query (`&`-joined, encoded).
pub fn new_page_query(space: &str, folder: &str, title: &str) -> String {
    let mut q = format!("space={}", encoded(space));
    if !folder.is_empty() {
        q.push_str(&format!("&folder={}", encoded(folder)));
    }
    if !title.is_empty() {
        q.push_str(&format!("&title={}", encoded(title)));
    }
    q
}

#[derive(Template)]
#[template(path = "documents/template_page.html")]
struct TemplatePage {
    id: String,
    title: String,
    is_template: bool,
    may_mark: bool,
    places: Option<(String, Vec<(String, bool)>)>,
}

/// `GET /d/{id}/template`.
pub async fn template_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let s = templates::status(&state.db, &id, manager(&user)).await?;
    let page = TemplatePage {
        id: s.doc.id,
        title: s.doc.title,
        is_template: s.is_template,
        may_mark: s.may_mark,
        places: s.places,
    };
    Ok(respond::fragment(StatusCode::OK, "Template", &page))
}

/// `POST /d/{id}/template` with `template` on or off.
pub async fn template_set(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let on = form.get("template") == Some("on");
    templates::mark(&state.db, &id, actor(&user), on).await?;
    let said = if on {
        Message::TemplateOn
    } else {
        Message::TemplateOff
    };
    Ok(done(&req, &format!("/d/{id}/template"), said))
}

/// `POST /d/{id}/template/default` with `folder` ('' the space) and `default`
/// on or off.
pub async fn template_default(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let on = form.get("default") == Some("on");
    let folder = crate::documents::place::folder_path(form.get("folder").unwrap_or_default())?;
    templates::set_default(&state.db, &id, manager(&user), &folder, on).await?;
    let said = if on {
        Message::TemplateDefaultOn
    } else {
        Message::TemplateDefaultOff
    };
    Ok(done(&req, &format!("/d/{id}/template"), said))
}
