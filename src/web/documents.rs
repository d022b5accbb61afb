//! Document pages: list, new, show, edit, save, and moving to the trash.

use std::sync::Arc;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::doc_view::{DocView, ShowPartial};
use super::editor::{EditForm, EditPartial};
use super::form::FormData;
use super::list_page::DocRow;
use super::list_page::{ListPartial, Places};
use super::message::Message;
use super::middleware::session::{CurrentUser, PageView};
use super::respond;
use super::{AppState, done};
use crate::clock::now_ms;
use crate::documents::{self, DocError};
use crate::templates;
use crate::web::error::AppError;

use super::params::{ListQuery, actor, caller, parse_id};

pub async fn document_list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, AppError> {
    let page = query.page();
    let listing = query.listing().map_err(AppError::BadRequest)?;
    let who = caller(&user);
    // The folders, tags and count are the same on every page until something
    // changes: kept in the page cache, only the rows are read each time.
    let (viewer, filters) = (user.0.id, listing.filters());
    let epoch = state.cache.epoch();
    let in_space = listing.space.map(|s| s.param()).unwrap_or_default();
    let (known_places, known_total) = state.cache.list(viewer, &in_space, &filters);
    let places = async {
        match &known_places {
            Some(places) => Ok(places.clone()),
            None => {
                let ((folders, tags), spaces, every) = futures_util::future::try_join3(
                    documents::places(&state.db, who, listing.space),
                    crate::teams::spaces::names(&state.db, viewer),
                    crate::teams::spaces::every_name(&state.db),
                )
                .await?;
                Ok::<_, DocError>(Arc::new((folders, tags, spaces, every)))
            }
        }
    };
    let ((rows, total), places) = futures_util::future::try_join(
        documents::list_knowing(&state.db, page, &listing, who, known_total),
        places,
    )
    .await?;
    if known_places.is_none() || known_total.is_none() {
        state
            .cache
            .keep_list(epoch, (viewer, &in_space), &places, (&filters, total));
    }
    let places = Arc::unwrap_or_clone(places);
    let partial = ListPartial::new(
        rows.iter()
            .map(|r| DocRow::seen_by(r, user.0.id, &places.3))
            .collect(),
        page,
        total,
        &listing,
        Places {
            folders: places.0,
            tags: places.1,
            spaces: places.2,
        },
    );
    Ok(respond::fragment(StatusCode::OK, "Documents", &partial))
}

#[derive(Deserialize)]
pub struct NewQuery {
    /// The folder to offer (a "New document" link from a folder's list).
    folder: Option<String>,
    /// The title to offer (a link to a document that does not exist yet).
    title: Option<String>,
    /// An unsaved new document to go on writing (its draft's key).
    draft: Option<String>,
    /// The space to offer (a "New document" link from a space's list).
    space: Option<String>,
    /// The template to start from (its id), `none` for a blank document;
    /// without it, the one the place names, if any.
    template: Option<String>,
}

pub async fn document_new(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<NewQuery>,
) -> Result<HttpResponse, AppError> {
    let folders = documents::folders(&state.db, caller(&user)).await?;
    let folder = query.folder.as_deref().map(documents::place::folder_path);
    let title: String = query
        .title
        .as_deref()
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    let folder = folder.and_then(Result::ok).unwrap_or_default();
    let asked = query.space.as_deref().and_then(documents::InSpace::parse);
    let chosen = match crate::teams::space_for_new(&state.db, user.0.id, asked).await {
        Ok(Some(id)) => id.to_string(),
        Ok(None) | Err(_) => "personal".to_owned(),
    };
    let writable = super::spaces::writable(&state, &user).await?;
    let title = title.trim().to_owned();
    let here = super::doc_templates::new_page_query(&chosen, &folder, &title);
    let mut form = EditForm::new_document(state.config.max_doc_bytes)
        .with_text(title.clone(), String::new())
        .placed(folder.clone(), String::new());
    form.place = form.place.map(|p| p.in_spaces(chosen.clone(), writable));
    let me = actor(&user);
    let mut start = None;
    // Going on with an unsaved new document: its text, under its own key.
    if let Some(key) = documents::new_drafts::key(query.draft.as_deref())
        && let Some(d) = documents::new_drafts::find(&state.db, me, &key).await?
    {
        form = form.with_text(d.title, d.body).placed(d.folder, d.tags);
        form.draft_key = Some(key);
    } else {
        let ask = templates::Ask::parse(query.template.as_deref())?;
        let place = (chosen.parse::<i64>().ok(), folder.as_str());
        start = templates::start(&state.db, me, &ask, place).await?;
        if let Some(s) = &start {
            let known = Some(title.as_str()).filter(|t| !t.is_empty());
            let fields = templates::fill::Fields::at(now_ms(), me.name, known);
            let body = templates::fill::fill(&s.body, &fields);
            form = form
                .with_text(title, body)
                .placed(folder, s.tags.join(", "));
            form.from_template = Some(s.id.clone());
        }
    }
    let offered = templates::offered(&state.db, me).await?;
    let offer = super::doc_templates::StartOffer::new(start.as_ref(), offered, here);
    Ok(EditPartial::of(&form.offering(folders))
        .starting(offer)
        .page(StatusCode::OK))
}

pub async fn document_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let mut mine = EditForm::sent(&form, None, state.config.max_doc_bytes)?;
    if mine.from_template.is_some() {
        mine.body = templates::fill::fill_title(&mine.body, mine.title.trim());
    }
    let valid = match mine.valid() {
        Ok(v) => v,
        Err(e) => return Err(AppError::from_doc(e, mine)),
    };
    let key = mine.draft_key.clone();
    let space = form.get("space").and_then(documents::InSpace::parse);
    let doc = documents::create_in(&state.db, valid, caller(&user), space)
        .await
        .map_err(|e| AppError::from_doc(e, mine))?;
    // The document holds the text now; its draft would only be offered again.
    if let Some(key) = key
        && let Err(e) = documents::new_drafts::remove(&state.db, actor(&user), &key).await
    {
        tracing::warn!(error = %e, "removing a created document's draft failed");
    }
    Ok(done(&req, &format!("/d/{}", doc.id), Message::Created))
}

pub async fn document_show(
    state: web::Data<AppState>,
    view: PageView,
) -> Result<HttpResponse, AppError> {
    if let Some(hit) = view.cached {
        return Ok(respond::rendered(StatusCode::OK, hit.title, Ok(hit.html)));
    }
    let doc = documents::access::check(view.doc, documents::Access::Read)?;
    let doc = documents::fresh_html(&state.db, doc).await?;
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    let reader = documents::Actor {
        user_id: view.user.id,
        name: &view.user.username,
    };
    // The page's links, its discussion and its open suggestions: read at once.
    let ((html, linked_from), talk, suggestions) = futures_util::future::try_join3(
        documents::links::for_reader(&state.db, &doc, reader),
        crate::comments::of_document(&state.db, &doc, reader),
        crate::suggestions::open_for(&state.db, &doc, reader),
    )
    .await?;
    let mut shown = DocView::from(&doc);
    if let Some(html) = html {
        shown.html = html;
    }
    shown.linked_from = linked_from;
    shown.talk = Some(super::talk_view::TalkView::new(doc.id.as_str(), &talk));
    shown.suggestions = suggestions
        .into_iter()
        .map(|s| (s.id, s.author, super::when::fmt_time(s.created_at)))
        .collect();
    let title = shown.title.clone();
    let partial = ShowPartial { doc: shown };
    if view.epoch.is_none() {
        return Ok(respond::fragment(StatusCode::OK, &title, &partial));
    }
    // Rendered once with a token of its own, kept, then given the session's.
    let stand_in = crate::random::random_token();
    let html = match super::csrf::render_with(stand_in.clone(), || partial.render()) {
        Ok(html) => html,
        Err(e) => {
            return Ok(respond::rendered(
                StatusCode::OK,
                title,
                Err::<String, _>(e),
            ));
        }
    };
    state
        .cache
        .keep_page(view.epoch, view.user.id, &doc, &title, &html, &stand_in);
    let html = html.replace(&stand_in, &super::csrf::token());
    Ok(respond::rendered(StatusCode::OK, title, Ok(html)))
}

#[derive(Deserialize)]
pub struct EditQuery {
    /// `restore`: put the user's draft in the editor.
    draft: Option<String>,
}

pub async fn document_edit(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<EditQuery>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let doc = documents::get(&state.db, &id, caller(&user)).await?;
    if !doc.access.may_edit() {
        return Err(DocError::Forbidden.into());
    }
    if doc.deleted_at.is_some() {
        return Ok(super::trash::in_trash_page(&doc));
    }
    let (draft, folders) = futures_util::future::try_join(
        documents::drafts::offer(&state.db, &doc, actor(&user)),
        documents::folders(&state.db, caller(&user)),
    )
    .await?;
    let files = documents::attachments::list(&state.db, &id, caller(&user))
        .await?
        .iter()
        .map(|f| super::editor::FileView::of(&doc.id, f))
        .collect();
    let restore = query.draft.as_deref() == Some("restore");
    let note = draft
        .as_ref()
        .map(|d| super::drafts::note(d, &doc, restore));
    let form = EditForm::of(doc, state.config.max_doc_bytes);
    // A restored draft keeps its base version, so saving it merges with whatever
    // was saved since instead of overwriting it.
    let form = match draft {
        Some(d) if restore => form.with_text(d.title, d.body).based_on(d.base_version),
        _ => form,
    };
    Ok(EditPartial::of(&form.offering(folders))
        .files(files)
        .draft(note)
        .page(StatusCode::OK))
}

pub async fn document_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let mine = EditForm::sent(&form, Some(&id), state.config.max_doc_bytes)?;
    // From the merge view, markers left in are most likely an oversight: say so
    // once. The form that comes back lacks the field, so saving again keeps them.
    if form.get("resolving") == Some("merge") && documents::merge::has_markers(&mine.body) {
        return Err(AppError::Form {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: LEFTOVER_MARKERS.into(),
            form: Box::new(mine),
        });
    }
    let saved = match mine.valid() {
        Ok(valid) => {
            let who = caller(&user);
            let merge = documents::OnStale::Merge { cap: mine.cap };
            documents::save(&state.db, &id, mine.version, valid, merge, who).await
        }
        Err(e) => Err(e),
    };
    match saved {
        Ok(saved) if saved.merged_with.is_some() => {
            Ok(done(&req, &format!("/d/{}", saved.doc.id), Message::Merged))
        }
        Ok(saved) => Ok(done(&req, &format!("/d/{}", saved.doc.id), Message::Saved)),
        // A document that went to the trash while being edited: keep the text.
        Err(DocError::NotFound) => Err(AppError::Form {
            status: StatusCode::NOT_FOUND,
            message: "This document no longer exists or is in the trash. Your text is below; \
                      copy it, or restore the document from the trash and save again."
                .into(),
            form: Box::new(mine),
        }),
        Err(e) => Err(AppError::from_doc(e, mine)),
    }
}

const LEFTOVER_MARKERS: &str = "Not saved yet: the text still has conflict markers \
    (lines starting with <<<<<<<, ======= and >>>>>>>). Keep what should stay, remove the \
    markers and save; or press Save again to keep the text exactly as it is.";

pub async fn document_delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    documents::trash(&state.db, &id, caller(&user)).await?;
    Ok(done(&req, "/", Message::Trashed))
}

/// Fallback so a search engine or an old link never sees a raw 404 for `/d/`.
pub async fn document_index() -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/"))
        .finish()
}
