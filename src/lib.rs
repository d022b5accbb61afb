//! quire: a self-hosted document web app. `app` is the one table of routes.

pub mod accounts;
pub mod cidr;
pub mod cli;
pub mod clock;
pub mod comments;
pub mod config;
pub mod db;
pub mod documents;
pub mod extract;
pub mod metrics;
pub mod notices;
pub mod ops;
pub mod pack;
pub mod progress;
pub mod query_param;
pub mod random;
pub mod seed;
pub mod startup;
pub mod suggestions;
pub mod teams;
pub mod templates;
pub mod transfer;
pub mod web;
pub mod webhooks;

/// The database handle and its change counter: all of the data layer that the
/// web layer holds (it calls the domain's functions with them).
pub use db::Db;
pub use db::changes::Changes;

use actix_web::Resource;
use actix_web::guard;
use actix_web::middleware::from_fn;
use actix_web::web::{ServiceConfig, delete, get, patch, post, put, resource, scope};

use crate::web::middleware::{auth, session};
use crate::web::{
    account, admin, api, api_openapi, api_places, assets, documents as docs, drafts, folders,
    health, history, login, metrics as scrape, search, search_live, sharing, transfer as xfer,
    trash,
};

/// A page anyone may open; a session, if the browser has one, shows in its header.
fn public(r: Resource) -> impl actix_web::dev::HttpServiceFactory {
    r.wrap(from_fn(session::optional_user))
}

/// Every route quire answers, top to bottom. Three kinds: for machines (no
/// cookies), the JSON API (bearer tokens), and pages for browsers (the CSRF
/// check on every write), of which a few are public, the document page reads the
/// session itself (with the document, in one query, or from the page cache),
/// and the rest need a signed-in user.
pub fn app(cfg: &mut ServiceConfig) {
    // The document page first: routes are tried in order, each dynamic one a
    // pattern match, and this is the page people view most.
    cfg.service(
        resource("/d/{id}")
            .guard(guard::Get())
            .wrap(from_fn(auth::browser))
            .to(docs::document_show),
    )
    .route("/healthz", get().to(health::healthz))
    .route("/readyz", get().to(health::readyz))
    .route("/metrics", get().to(scrape::metrics_show))
    .route("/static/{hash}/{name}", get().to(assets::serve))
    .route("/favicon.ico", get().to(assets::favicon))
    .route("/diagram", get().to(crate::web::diagrams::frame))
    .route("/api/v1/openapi.json", get().to(api_openapi::openapi_json))
    // An unsubscribe link works from a mail program, without a session or a
    // CSRF token: its key names the person, and it can only stop mail.
    .service(
        resource("/unsubscribe/{key}")
            .route(get().to(crate::web::mail::unsubscribe_show))
            .route(post().to(crate::web::mail::unsubscribe_apply)),
    )
    .service(public(
        resource("/api/docs").route(get().to(api_openapi::docs_page)),
    ))
    .service(
        scope("/api")
            .wrap(from_fn(auth::api))
            .app_data(api::query_config())
            .service(
                resource("/v1/documents")
                    .route(get().to(api::api_list))
                    .route(post().to(api::api_create)),
            )
            .service(
                resource("/v1/documents/{id}")
                    .route(get().to(api::api_get))
                    .route(put().to(api::api_update))
                    .route(delete().to(api::api_delete)),
            )
            .service(
                resource("/v1/documents/{id}/attachments")
                    .route(get().to(crate::web::api_attachments::api_attachments))
                    .route(post().to(crate::web::api_attachments::api_attach)),
            )
            .service(
                resource("/v1/documents/{id}/attachments/{name:.+}")
                    .route(get().to(crate::web::api_attachments::api_download))
                    .route(delete().to(crate::web::api_attachments::api_detach)),
            )
            .service(
                resource("/v1/documents/{id}/comments")
                    .route(get().to(crate::web::api_comments::api_comments))
                    .route(post().to(crate::web::api_comments::api_comment_add)),
            )
            .service(
                resource("/v1/documents/{id}/comments/{cid}")
                    .route(patch().to(crate::web::api_comments::api_comment_change))
                    .route(delete().to(crate::web::api_comments::api_comment_delete)),
            )
            .route("/v1/folders", get().to(api_places::api_folders))
            .route("/v1/tags", get().to(api_places::api_tags))
            .service(
                resource("/v1/spaces")
                    .route(get().to(crate::web::api_spaces::api_spaces))
                    .route(post().to(crate::web::api_spaces::api_space_create)),
            )
            .service(
                resource("/v1/spaces/{id}/members")
                    .route(get().to(crate::web::api_spaces::api_members))
                    .route(put().to(crate::web::api_spaces::api_member_put)),
            )
            .route(
                "/v1/documents/{id}/space",
                post().to(crate::web::api_spaces::api_move),
            )
            .service(
                resource("/v1/groups")
                    .route(get().to(crate::web::api_groups::api_groups))
                    .route(post().to(crate::web::api_groups::api_group_create)),
            )
            .service(
                resource("/v1/groups/{id}/members")
                    .route(get().to(crate::web::api_groups::api_group_members))
                    .route(put().to(crate::web::api_groups::api_group_member_put)),
            )
            .route(
                "/v1/groups/{id}/members/{user_id}",
                delete().to(crate::web::api_groups::api_group_member_delete),
            ),
    )
    .service(
        scope("")
            .wrap(from_fn(auth::browser))
            .service(public(
                resource("/login")
                    .route(get().to(login::login_form))
                    .route(post().to(login::login)),
            ))
            .service(public(
                resource("/login/oidc").route(get().to(crate::web::oidc::start)),
            ))
            .service(public(
                resource("/login/oidc/callback").route(get().to(crate::web::oidc::callback)),
            ))
            .service(public(
                resource("/signup")
                    .route(get().to(login::signup_form))
                    .route(post().to(login::signup)),
            ))
            .service(public(
                resource("/setup/{token}")
                    .route(get().to(crate::web::setup::setup_form))
                    .route(post().to(crate::web::setup::setup)),
            ))
            .service(public(
                resource("/join/{token}")
                    .route(get().to(crate::web::invitations::join_form))
                    .route(post().to(crate::web::invitations::join)),
            ))
            .service(public(
                resource("/reset/{token}")
                    .route(get().to(crate::web::invitations::reset_form))
                    .route(post().to(crate::web::invitations::reset)),
            ))
            .service(public(
                resource("/p/{token}").route(get().to(sharing::public_show)),
            ))
            .service(public(
                resource("/feeds/{token}").route(get().to(crate::web::feeds::feed_show)),
            ))
            .service(public(
                resource("/p/{token}/files/{name:.+}")
                    .route(get().to(crate::web::attachments::public_file_get)),
            ))
            .service(
                scope("")
                    .wrap(from_fn(session::require_user))
                    .configure(signed_in),
            ),
    );
}

/// Pages for a signed-in user.
fn signed_in(cfg: &mut ServiceConfig) {
    cfg.route("/", get().to(docs::document_list))
        .route("/new", get().to(docs::document_new))
        .route("/new/draft", post().to(crate::web::new_drafts::save))
        .route("/new/drafts", get().to(crate::web::new_drafts::offers))
        .route(
            "/new/draft/discard",
            post().to(crate::web::new_drafts::discard),
        )
        .route("/go", get().to(crate::web::links::follow_link))
        .route("/titles", get().to(crate::web::links::link_suggestions))
        .route("/docs", post().to(docs::document_create))
        .route("/selection", post().to(crate::web::selection::apply))
        .route("/preview", post().to(crate::web::preview::preview))
        .route("/d", get().to(docs::document_index))
        .route("/d/{id}", post().to(docs::document_update))
        .route("/d/{id}/edit", get().to(docs::document_edit))
        .service(
            resource("/d/{id}/draft")
                .route(get().to(drafts::draft_offer))
                .route(post().to(drafts::draft_save)),
        )
        .route("/d/{id}/draft/discard", post().to(drafts::draft_discard))
        .route("/d/{id}/delete", post().to(docs::document_delete))
        .route("/d/{id}/task", post().to(crate::web::tasks::task_set))
        .route(
            "/d/{id}/attachments",
            post().to(crate::web::attachments::attach),
        )
        .route(
            "/d/{id}/attachments/remove",
            post().to(crate::web::attachments::remove),
        )
        .route(
            "/d/{id}/files/{name:.+}",
            get().to(crate::web::attachments::file_get),
        )
        .service(
            resource("/d/{id}/share")
                .route(get().to(sharing::share_page))
                .route(post().to(sharing::share_update)),
        )
        .route("/d/{id}/move", get().to(crate::web::moves::move_form))
        .route("/d/{id}/move", post().to(crate::web::moves::move_apply))
        .route("/d/{id}/history", get().to(history::document_history))
        .service(
            resource("/d/{id}/editing")
                .route(get().to(crate::web::presence::editing_show))
                .route(post().to(crate::web::presence::editing_here)),
        )
        .route(
            "/d/{id}/catch-up",
            post().to(crate::web::presence::catch_up),
        )
        .service(
            resource("/d/{id}/watch")
                .route(get().to(crate::web::watch::document_watch_show))
                .route(post().to(crate::web::watch::document_watch_set)),
        )
        .service(
            resource("/d/{id}/template")
                .route(get().to(crate::web::doc_templates::template_show))
                .route(post().to(crate::web::doc_templates::template_set)),
        )
        .route(
            "/d/{id}/template/default",
            post().to(crate::web::doc_templates::template_default),
        )
        .service(
            resource("/webhooks")
                .route(get().to(crate::web::webhooks::hooks_show))
                .route(post().to(crate::web::webhooks::hook_create)),
        )
        .route("/webhooks/{id}", get().to(crate::web::webhooks::hook_show))
        .route(
            "/webhooks/{id}/delete",
            post().to(crate::web::webhooks::hook_delete),
        )
        .route(
            "/webhooks/{id}/resend",
            post().to(crate::web::webhooks::hook_resend),
        )
        .service(
            resource("/d/{id}/suggest")
                .route(get().to(crate::web::suggestions::suggest_form))
                .route(post().to(crate::web::suggestions::suggest)),
        )
        .route(
            "/d/{id}/suggestions/{sid}",
            get().to(crate::web::suggestions::review),
        )
        .route(
            "/d/{id}/suggestions/{sid}/accept",
            post().to(crate::web::suggestions::accept),
        )
        .route(
            "/d/{id}/suggestions/{sid}/decline",
            post().to(crate::web::suggestions::decline),
        )
        .route("/d/{id}/comments", post().to(crate::web::comments::add))
        .route(
            "/d/{id}/comments/{cid}/edit",
            get().to(crate::web::comments::edit_form),
        )
        .route(
            "/d/{id}/comments/{cid}",
            post().to(crate::web::comments::edit),
        )
        .route(
            "/d/{id}/comments/{cid}/delete",
            post().to(crate::web::comments::delete),
        )
        .route(
            "/d/{id}/comments/{cid}/resolve",
            post().to(crate::web::comments::resolve),
        )
        .route("/d/{id}/r/{rev}", get().to(history::revision_show))
        .route(
            "/d/{id}/r/{rev}/restore",
            post().to(history::revision_restore),
        )
        .route("/d/{id}/diff", get().to(history::revision_diff))
        .route("/d/{id}/restore", post().to(trash::document_restore))
        .route("/search", get().to(search::search_results))
        .route("/search/live", get().to(search_live::search_live))
        .route("/trash", get().to(trash::trash_list))
        .route("/trash/empty", post().to(trash::trash_empty))
        .route("/folders/rename", post().to(folders::folder_rename))
        .service(
            resource("/folders/move")
                .route(get().to(crate::web::folder_moves::folder_move_form))
                .route(post().to(crate::web::folder_moves::folder_move_apply)),
        )
        .route("/inbox", get().to(crate::web::inbox::inbox_show))
        .route(
            "/inbox/read-all",
            post().to(crate::web::inbox::inbox_read_all),
        )
        .route("/inbox/{id}", get().to(crate::web::inbox::notice_open))
        .route(
            "/inbox/{id}/read",
            post().to(crate::web::inbox::notice_read),
        )
        .route("/changes", get().to(crate::web::inbox::changes_show))
        .service(
            resource("/watch")
                .route(get().to(crate::web::watch::place_watch_show))
                .route(post().to(crate::web::watch::place_watch_set)),
        )
        .route("/account/notices", post().to(account::notices_save))
        .route("/account/feed", post().to(crate::web::feeds::feed_make))
        .route("/account/mail", post().to(crate::web::mail::mail_save))
        .route(
            "/account/feed/revoke",
            post().to(crate::web::feeds::feed_revoke),
        )
        .route("/logout", post().to(login::logout))
        .route("/account", get().to(account::account_show))
        .route("/account/password", post().to(account::password_change))
        .route("/account/name", post().to(account::name_change))
        .route("/account/link-sign-in", post().to(crate::web::oidc::link))
        .route("/account/tokens", post().to(account::token_create))
        .route(
            "/account/tokens/{id}/revoke",
            post().to(account::token_revoke),
        )
        .service(
            resource("/admin/users")
                .route(get().to(admin::users_list))
                .route(post().to(admin::user_create)),
        )
        .service(
            resource("/admin/users/{id}")
                .route(get().to(crate::web::admin_user::user_page))
                .route(post().to(admin::user_update)),
        )
        .route("/admin/audit", get().to(admin::audit_list))
        .route("/spaces", get().to(crate::web::spaces::spaces_list))
        .route("/spaces", post().to(crate::web::spaces::space_create))
        .route("/spaces/{id}", get().to(crate::web::spaces::space_show))
        .route("/spaces/{id}", post().to(crate::web::spaces::space_update))
        .route("/admin/groups", get().to(crate::web::groups::groups_list))
        .route("/admin/groups", post().to(crate::web::groups::group_create))
        .service(
            resource("/admin/groups/{id}")
                .route(get().to(crate::web::groups::group_show))
                .route(post().to(crate::web::groups::group_update)),
        )
        .service(
            resource("/invitations")
                .route(get().to(crate::web::invitations::invite_form))
                .route(post().to(crate::web::invitations::invite_make)),
        )
        .service(
            resource("/admin/import")
                .route(get().to(xfer::import_form))
                .route(post().to(xfer::import_upload)),
        )
        .route("/account/export", get().to(xfer::export_download));
}
