//! HTTP: parse, call the domain, render. One file per area; `crate::app` lists every
//! route in one table.

pub mod account;
pub mod admin;
pub mod admin_user;
pub mod api;
pub mod api_attachments;
pub mod api_comments;
mod api_description;
pub mod api_groups;
pub mod api_openapi;
pub mod api_places;
pub mod api_spaces;
mod api_types;
pub mod assets;
pub mod attachments;
pub mod cache;
pub mod client;
pub mod comments;
pub mod conflict;
pub mod counted;
pub mod csrf;
pub mod diagrams;
pub mod doc_templates;
pub mod doc_view;
pub mod documents;
pub mod drafts;
pub mod editor;
pub mod error;
pub mod feeds;
pub mod folder_moves;
mod folder_tree;
pub mod folders;
pub mod form;
pub mod groups;
pub mod health;
pub mod history;
pub mod inbox;
pub mod invitations;
pub mod links;
pub mod list_page;
pub mod login;
pub mod mail;
pub mod message;
pub mod metrics;
pub mod middleware;
pub mod moves;
pub mod multipart;
pub mod new_drafts;
pub mod oidc;
pub mod params;
mod place_fields;
pub mod presence;
pub mod preview;
pub mod respond;
pub mod resume;
pub mod search;
pub mod search_live;
pub mod selection;
pub mod setup;
pub mod sharing;
pub mod spaces;
pub mod suggestions;
mod talk_view;
pub mod tasks;
pub mod transfer;
pub mod trash;
pub mod watch;
pub mod webhooks;
pub mod when;
mod who_cache;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::Db;
use crate::config::Config;
use crate::web::error::AppError;
use crate::web::message::Message;

/// What every handler may use. Nothing here is state another instance would need.
pub struct AppState {
    pub db: Db,
    pub config: Config,
    /// What page views read, kept exact by the database's change counter.
    pub cache: cache::PageCache,
    /// The OpenID Connect provider people sign in with, when one is set.
    pub oidc: Option<std::sync::Arc<crate::accounts::oidc::Provider>>,
}

/// Where a successful form post goes next. A plain form gets a 303 to the page
/// (with the message's code); htmx gets told to load that page into `#main`
/// and to show the message, without a full reload: the same words either way.
pub fn done(req: &HttpRequest, path: &str, message: Message) -> HttpResponse {
    if middleware::layout::wants_partial(req.headers()) {
        HttpResponse::Ok()
            .insert_header((
                "HX-Location",
                format!(r##"{{"path":"{path}","target":"#main"}}"##),
            ))
            .insert_header((
                "HX-Trigger",
                format!(r#"{{"quire:flash":"{}"}}"#, message.text()),
            ))
            .finish()
    } else {
        let sep = if path.contains('?') { '&' } else { '?' };
        HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("{path}{sep}m={}", message.code())))
            .finish()
    }
}

/// Malformed query strings and paths get the same clear page as any other 400.
pub fn extractor_errors(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::QueryConfig::default().error_handler(|e, _| {
        actix_web::Error::from(AppError::BadRequest(format!(
            "The address has a malformed query: {e}"
        )))
    }))
    .app_data(web::PathConfig::default().error_handler(|_, _| AppError::NotFound.into()));
}
