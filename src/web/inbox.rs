//! The inbox (what reached the person) and recent changes (what changed in
//! what they may read), both pages that work without JavaScript.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::error::AppError;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::when::Stamp;
use super::{AppState, done, respond};
use crate::documents::{DocId, InSpace};
use crate::notices::recent::{Line, Scope};
use crate::notices::{self, Notice};

#[derive(Template)]
#[template(path = "notices/inbox_partial.html")]
struct InboxPartial {
    notices: Vec<(Notice, Stamp)>,
    unread: usize,
}

pub async fn inbox_show(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    let notices = notices::inbox(&state.db, actor(&user)).await?;
    let unread = notices.iter().filter(|n| n.unread).count();
    let notices = notices
        .into_iter()
        .map(|n| {
            let at = Stamp::at(n.at);
            (n, at)
        })
        .collect();
    let partial = InboxPartial { notices, unread };
    Ok(respond::fragment(StatusCode::OK, "Inbox", &partial))
}

/// Follows a notice: marks it read and goes where it leads.
pub async fn notice_open(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    match notices::open(&state.db, actor(&user), id.into_inner()).await? {
        Some(to) => Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, to))
            .finish()),
        None => Err(AppError::NotFound),
    }
}

pub async fn notice_read(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    notices::mark_read(&state.db, actor(&user), id.into_inner()).await?;
    Ok(done(&req, "/inbox", Message::NoticeRead))
}

pub async fn inbox_read_all(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    notices::mark_all_read(&state.db, actor(&user)).await?;
    Ok(done(&req, "/inbox", Message::AllRead))
}

/// Where recent changes (the page and the feed) look.
#[derive(Deserialize)]
pub struct ChangesQuery {
    /// `personal` or a space's number.
    space: Option<String>,
    folder: Option<String>,
    /// One document, by id (the feed).
    doc: Option<String>,
    /// Changes saved before this moment (ms): the next page.
    before: Option<i64>,
}

impl ChangesQuery {
    pub fn scope(&self) -> Result<Scope, AppError> {
        let folder = match self
            .folder
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            Some(f) => Some(crate::documents::place::folder_path(f)?),
            None => None,
        };
        Ok(Scope {
            space: self.space.as_deref().and_then(InSpace::parse),
            folder,
            doc: self
                .doc
                .as_deref()
                .and_then(DocId::parse)
                .map(|d| d.to_string()),
            before: self.before.filter(|b| *b > 0),
        })
    }

    /// The scope as query parameters, each followed by `&`.
    pub fn query(&self) -> String {
        let Ok(scope) = self.scope() else {
            return String::new();
        };
        let mut q = String::new();
        if let Some(s) = scope.space {
            q.push_str(&format!("space={}&", s.param()));
        }
        if let Some(f) = &scope.folder {
            q.push_str(&format!("folder={}&", crate::query_param::encoded(f)));
        }
        if let Some(d) = &scope.doc {
            q.push_str(&format!("doc={d}&"));
        }
        q
    }
}

#[derive(Template)]
#[template(path = "notices/changes_partial.html")]
struct ChangesPartial {
    /// Each line, when it was saved, and whether the "since your last visit"
    /// mark goes before it.
    lines: Vec<(Line, Stamp, bool)>,
    seen_before: Option<Stamp>,
    /// The query for the next page, when there is one.
    older: Option<String>,
    /// The scope as words and as query parameters.
    scope_name: String,
    scope_query: String,
}

pub async fn changes_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ChangesQuery>,
) -> Result<HttpResponse, AppError> {
    let q = query.into_inner();
    let scope = q.scope()?;
    let page = crate::notices::recent::recent(&state.db, actor(&user), &scope).await?;
    let scope_query = q.query();
    let mut scope_name = String::new();
    if let Some(s) = scope.space {
        let name = match s {
            InSpace::Personal => Some("your personal space".to_owned()),
            InSpace::Id(id) => crate::teams::spaces::names(&state.db, user.0.id)
                .await?
                .into_iter()
                .find(|(n, _)| *n == id)
                .map(|(_, name)| name),
        };
        scope_name = name.unwrap_or_else(|| "a space you are not in".to_owned());
    }
    if let Some(f) = &scope.folder {
        if scope_name.is_empty() {
            scope_name = f.clone();
        } else {
            scope_name = format!("{scope_name} / {f}");
        }
    }
    let mark_before = page
        .lines
        .iter()
        .position(|l| !l.unseen)
        .filter(|&i| i > 0 && page.seen_before.is_some());
    let partial = ChangesPartial {
        seen_before: page.seen_before.map(Stamp::at),
        older: page.older.map(|b| format!("{scope_query}before={b}")),
        lines: page
            .lines
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                let at = Stamp::at(l.newest);
                (l, at, mark_before == Some(i))
            })
            .collect(),
        scope_name,
        scope_query,
    };
    Ok(respond::fragment(
        StatusCode::OK,
        "Recent changes",
        &partial,
    ))
}
