//! History pages: the revision list, one old revision, a diff, and restoring.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{PageQuery, caller, parse_id};
use super::respond;
use super::when::{fmt_time, iso_time};
use super::{AppState, done};
use crate::documents::{self, DiffLine, DiffView, LineKind, Revision, human_size};
use crate::web::error::AppError;

pub struct RevRow {
    pub rev: i64,
    pub title: String,
    pub when: String,
    pub when_iso: String,
    pub size: String,
    pub summary: String,
    pub author: String,
    pub current: bool,
    /// What it did to the folder and tags, where the page knows.
    pub moved: Option<String>,
}

impl RevRow {
    fn new(r: &Revision, current_version: i64) -> Self {
        let summary = if r.rev == 1 {
            format!("created, {} lines", r.added)
        } else if r.added == 0 && r.removed == 0 {
            "text unchanged".into()
        } else {
            format!("+{} −{} lines", r.added, r.removed)
        };
        Self {
            rev: r.rev,
            title: r.title.clone(),
            when: fmt_time(r.created_at),
            when_iso: iso_time(r.created_at),
            size: human_size(r.size.max(0) as usize),
            summary,
            author: r.author.clone().unwrap_or_default(),
            current: r.rev == current_version,
            moved: None,
        }
    }
}

#[derive(Template)]
#[template(path = "history/list_partial.html")]
struct HistoryPartial {
    id: String,
    title: String,
    rows: Vec<RevRow>,
    page: i64,
    more: bool,
}

#[derive(Template)]
#[template(path = "history/revision_partial.html")]
struct RevisionPartial {
    id: String,
    rev: RevRow,
    html: String,
}

pub struct DiffRow {
    pub class: &'static str,
    pub sign: &'static str,
    pub old_no: String,
    pub new_no: String,
    pub parts: Vec<(bool, String)>,
}

impl DiffRow {
    /// The class and sign a line of this kind shows with.
    fn marks(kind: &documents::LineKind) -> (&'static str, &'static str) {
        use documents::LineKind::*;
        match kind {
            Same => ("same", " "),
            Added => ("add", "+"),
            Removed => ("del", "−"),
            Gap => ("gap", "⋯"),
        }
    }
}

impl From<DiffLine> for DiffRow {
    fn from(l: DiffLine) -> Self {
        let (class, sign) = Self::marks(&l.kind);
        let no = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
        Self {
            class,
            sign,
            old_no: no(l.old_no),
            new_no: no(l.new_no),
            parts: l.parts,
        }
    }
}

#[derive(Template)]
#[template(path = "history/diff_partial.html")]
struct DiffPartial {
    id: String,
    from: RevRow,
    to: RevRow,
    title_changed: bool,
    rows: Vec<DiffRow>,
    /// What changed between the two, in lines.
    summary: String,
    /// The whole text shown, not only the changes.
    whole: bool,
    /// The rendered page shown, its blocks marked: (element, what a screen
    /// reader says before it, sanitised HTML).
    blocks: Option<Vec<(&'static str, &'static str, String)>>,
}

pub async fn document_history(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let page = query.into_inner().page();
    let (doc, revs, earlier) = documents::history(&state.db, &id, page, caller(&user)).await?;
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    let more = earlier.is_some();
    let suggested = crate::suggestions::accepted_versions(&state.db, doc.seq).await?;
    let rows = revs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = RevRow {
                moved: documents::place_change(r, revs.get(i + 1).or(earlier.as_ref())),
                ..RevRow::new(r, doc.version)
            };
            // A suggested edit someone accepted: both are its authors.
            if let Some((_, by)) = suggested.iter().find(|(v, _)| *v == r.rev) {
                row.author = format!("{}, suggested by {by}", row.author);
            }
            row
        })
        .collect();
    let partial = HistoryPartial {
        rows,
        id: doc.id,
        title: doc.title,
        page,
        more,
    };
    Ok(respond::fragment(StatusCode::OK, "History", &partial))
}

pub async fn revision_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, rev) = path.into_inner();
    let id = parse_id(&id)?;
    let (doc, revision, text) = documents::revision(&state.db, &id, rev, caller(&user)).await?;
    // A trashed document's old texts are gone from view with it, as its page is.
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    // Old revisions are read rarely; rendering them on demand keeps saves cheap.
    let doc_id = doc.id.clone();
    let html = web::block(move || documents::render_page(&text, Some(&doc_id)))
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let partial = RevisionPartial {
        id: doc.id,
        rev: RevRow::new(&revision, doc.version),
        html,
    };
    Ok(respond::fragment(
        StatusCode::OK,
        &format!("{} (revision {rev})", revision.title),
        &partial,
    ))
}

#[derive(Deserialize)]
pub struct DiffQuery {
    from: Option<i64>,
    to: Option<i64>,
    /// `whole=1`: the whole text, not only the changes.
    whole: Option<String>,
    /// `view=rendered`: the rendered page, its blocks marked.
    view: Option<String>,
}

pub async fn revision_diff(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<DiffQuery>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let actor = caller(&user);
    let doc = documents::get(&state.db, &id, actor).await?;
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    let to = query.to.unwrap_or(doc.version);
    let from = query.from.unwrap_or(to - 1).max(1);
    let whole = query
        .whole
        .as_deref()
        .is_some_and(|w| !w.is_empty() && w != "0");
    let view = match (query.view.as_deref(), whole) {
        (Some("rendered"), _) => DiffView::Rendered,
        (_, true) => DiffView::Whole,
        _ => DiffView::Changes,
    };
    let diff = documents::revision_diff(&state.db, &id, (from, to), view, actor).await?;
    let summary = match (diff.added, diff.removed) {
        (0, 0) => "no line changed".to_owned(),
        (added, removed) => format!("+{added} −{removed} lines between them"),
    };
    let partial = DiffPartial {
        id: diff.doc.id.clone(),
        from: RevRow::new(&diff.from, diff.doc.version),
        to: RevRow::new(&diff.to, diff.doc.version),
        title_changed: diff.title_changed,
        rows: diff.lines.into_iter().map(DiffRow::from).collect(),
        summary,
        whole,
        blocks: (view == DiffView::Rendered).then(|| {
            diff.blocks
                .into_iter()
                .map(|b| match b.kind {
                    LineKind::Added => ("ins", "Added: ", b.html),
                    LineKind::Removed => ("del", "Removed: ", b.html),
                    _ => ("div", "", b.html),
                })
                .collect()
        }),
    };
    Ok(respond::fragment(
        StatusCode::OK,
        &format!("Changes from {from} to {to}"),
        &partial,
    ))
}

pub async fn revision_restore(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, rev) = path.into_inner();
    let id = parse_id(&id)?;
    let saved = documents::restore_revision(&state.db, &id, rev, caller(&user)).await?;
    Ok(done(
        &req,
        &format!("/d/{}", saved.id),
        Message::RevisionRestored,
    ))
}
