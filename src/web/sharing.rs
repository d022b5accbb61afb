//! Who may see a document: visibility, named users, and a revocable public link.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::doc_view::{DocView, ShowPartial};
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::params::{caller, parse_id};
use super::respond;
use super::{AppState, done};
use crate::documents;
use crate::documents::access::{self, Change, Share};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "documents/share_partial.html")]
struct SharePartial {
    id: String,
    title: String,
    visibility: String,
    shares: Vec<Share>,
    /// The groups it is shared with: (id, name, may edit).
    group_shares: Vec<(i64, String, i64)>,
    public_url: Option<String>,
    /// Why the last "Share" did not go through, beside the name as it was typed.
    share_error: Option<String>,
    username: String,
}

pub async fn share_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    sharing_page(&req, &state, &user, &id, None).await
}

/// The sharing page; with `refused`, the name that could not be added and why.
async fn sharing_page(
    req: &HttpRequest,
    state: &AppState,
    user: &CurrentUser,
    id: &documents::DocId,
    refused: Option<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let doc = documents::get(&state.db, id, caller(user)).await?;
    if !doc.access.may_own() {
        return Err(AppError::Forbidden(
            "Only the owner of a document can change who sees it.".into(),
        ));
    }
    let shares = access::shares(&state.db, doc.seq)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let group_shares = access::group_shares(&state.db, doc.seq)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let base = super::client::public_base(req, &state.config);
    let public_url = doc.public_token.as_ref().map(|t| format!("{base}/p/{t}"));
    let status = match refused {
        Some(_) => StatusCode::UNPROCESSABLE_ENTITY,
        None => StatusCode::OK,
    };
    let (username, share_error) = match refused {
        Some((name, why)) => (name, Some(why)),
        None => (String::new(), None),
    };
    Ok(respond::fragment(
        status,
        "Sharing",
        &SharePartial {
            id: doc.id,
            title: doc.title,
            visibility: doc.visibility,
            shares,
            group_shares,
            public_url,
            share_error,
            username,
        },
    ))
}

/// `POST /d/{id}/share`: one change per submit, named by the button pressed.
pub async fn share_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = parse_id(&id)?;
    let change = match form.require("action")? {
        "visibility" => Change::Visibility(form.require("visibility")?),
        "share" => Change::Share {
            username: form.require("username")?,
            can_edit: form.get("role") == Some("edit"),
        },
        "unshare" => Change::Unshare {
            user_id: form
                .require("user_id")?
                .parse()
                .map_err(|_| AppError::BadRequest("No such user id.".into()))?,
        },
        "unshare-group" => Change::UnshareGroup {
            group_id: form
                .require("group_id")?
                .parse()
                .map_err(|_| AppError::BadRequest("No such group id.".into()))?,
        },
        "link-on" => Change::PublicLink(true),
        "link-off" => Change::PublicLink(false),
        other => {
            return Err(AppError::BadRequest(format!("Unknown action {other:?}.")));
        }
    };
    let shared_with = match &change {
        Change::Share { username, .. } => Some(username.to_string()),
        _ => None,
    };
    match access::change(&state.db, &id, caller(&user), change).await {
        Ok(()) => {}
        // A name that matches nobody: said beside the field, the name kept.
        Err(documents::DocError::Invalid(why)) if shared_with.is_some() => {
            let name = shared_with.unwrap_or_default();
            return sharing_page(&req, &state, &user, &id, Some((name, why))).await;
        }
        Err(documents::DocError::Invalid(m)) => return Err(AppError::BadRequest(m)),
        Err(other) => return Err(other.into()),
    }
    Ok(done(&req, &format!("/d/{id}/share"), Message::SharingSaved))
}

/// `GET /p/{token}`: the read-only public page, no sign-in.
pub async fn public_show(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let doc = access::find_public(&state.db, &token).await?;
    let mut view = DocView::from(&doc);
    view.public = true;
    // Links to other documents lead nowhere for someone not signed in.
    view.html = crate::documents::links::resolve(&view.html, None);
    // Its files come from the public link too (which does not name the document).
    view.html = view.html.replace(
        &format!("/d/{}/files/", doc.id),
        &format!("/p/{}/files/", token.as_str()),
    );
    Ok(respond::fragment(
        StatusCode::OK,
        &doc.title,
        &ShowPartial { doc: view },
    ))
}
