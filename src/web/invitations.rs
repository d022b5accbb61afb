//! Invitation links as pages: making one (`/invitations`: admins for any
//! spaces and groups, a space's managers for theirs), joining by one
//! (`/join/{token}`) and choosing a new password by an admin's reset link
//! (`/reset/{token}`). The two last are for people not signed in.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::spaces::manager;
use super::{AppState, respond};
use crate::accounts::{AccountError, invitations as take};
use crate::documents::DocError;
use crate::teams::invitations::{self, DEFAULT_DAYS, Joins};
use crate::teams::{GroupRow, Role, SpaceRow, groups, spaces};
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "spaces/invite_partial.html")]
struct InvitePartial<'a> {
    spaces: Vec<SpaceRow>,
    groups: Vec<GroupRow>,
    link: Option<String>,
    error: Option<&'a str>,
}

async fn invite_page(
    state: &AppState,
    user: &CurrentUser,
    status: StatusCode,
    link: Option<String>,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let m = manager(user);
    let spaces: Vec<SpaceRow> = spaces::list(&state.db, m)
        .await?
        .into_iter()
        .filter(|s| spaces::may_manage(m, s))
        .collect();
    if spaces.is_empty() && !m.is_admin {
        return Err(AppError::Forbidden(
            "Administrators and the managers of a space can invite people.".into(),
        ));
    }
    let groups = if m.is_admin {
        groups::list(&state.db).await?
    } else {
        Vec::new()
    };
    let page = InvitePartial {
        spaces,
        groups,
        link,
        error,
    };
    Ok(respond::fragment(status, "Invite people", &page))
}

pub async fn invite_form(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    invite_page(&state, &user, StatusCode::OK, None, None).await
}

/// The form's choices: `space-N` = a role or empty, `group-N` = on.
fn joins(form: &FormData, spaces: &[SpaceRow], groups: &[GroupRow]) -> Result<Joins, DocError> {
    let mut joins = Joins::default();
    for s in spaces {
        match form.get(&format!("space-{}", s.id)).unwrap_or_default() {
            "" => {}
            role => joins.spaces.push((s.id, Role::parse(role)?)),
        }
    }
    for g in groups {
        if form.get(&format!("group-{}", g.id)) == Some("on") {
            joins.groups.push(g.id);
        }
    }
    Ok(joins)
}

pub async fn invite_make(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let m = manager(&user);
    let all_spaces = spaces::list(&state.db, m).await?;
    let all_groups = if m.is_admin {
        groups::list(&state.db).await?
    } else {
        Vec::new()
    };
    let days = form
        .get("days")
        .unwrap_or("7")
        .trim()
        .parse()
        .unwrap_or(DEFAULT_DAYS);
    let made = match joins(&form, &all_spaces, &all_groups) {
        Ok(j) => invitations::make_join(&state.db, invitations::Inviter::Person(m), &j, days).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(token) => {
            let base = super::client::public_base(&req, &state.config);
            let link = format!("{base}/join/{token}");
            invite_page(&state, &user, StatusCode::OK, Some(link), None).await
        }
        Err(DocError::Invalid(e)) => {
            invite_page(
                &state,
                &user,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                Some(&e),
            )
            .await
        }
        Err(DocError::Forbidden) => Err(AppError::Forbidden(
            "You can invite people only to the spaces you manage.".into(),
        )),
        Err(e) => Err(e.into()),
    }
}

#[derive(Template)]
#[template(path = "spaces/join_partial.html")]
struct JoinPartial<'a> {
    token: &'a str,
    reset: bool,
    username: &'a str,
    error: Option<&'a str>,
}

fn join_page(
    status: StatusCode,
    token: &str,
    reset: bool,
    username: &str,
    error: Option<&str>,
) -> HttpResponse {
    let title = if reset {
        "Choose a new password"
    } else {
        "Join quire"
    };
    respond::fragment(
        status,
        title,
        &JoinPartial {
            token,
            reset,
            username,
            error,
        },
    )
}

async fn link_or_gone(state: &AppState, token: &str, kind: &str) -> Result<(), AppError> {
    match take::open(&state.db, token, kind).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(AppError::Refused {
            status: StatusCode::GONE,
            message: "This link has been used or has expired. Ask for a new one.".into(),
        }),
        Err(e) => Err(super::account::account_error(e)),
    }
}

pub async fn join_form(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    link_or_gone(&state, &token, "join").await?;
    Ok(join_page(StatusCode::OK, &token, false, "", None))
}

pub async fn join(
    req: HttpRequest,
    state: web::Data<AppState>,
    token: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let username = form.get("username").unwrap_or_default();
    let password = form.get("password").unwrap_or_default();
    match take::join(&state.db, &token, username, password).await {
        Ok(user) => {
            let next = format!("/?m={}", Message::Welcome.code());
            super::login::signed_in(&req, &state, &user, &next).await
        }
        Err(e @ (AccountError::Invalid(_) | AccountError::Taken)) => {
            let m = e.to_string();
            Ok(join_page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &token,
                false,
                username,
                Some(&m),
            ))
        }
        Err(e) => Err(super::account::account_error(e)),
    }
}

pub async fn reset_form(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    link_or_gone(&state, &token, "reset").await?;
    Ok(join_page(StatusCode::OK, &token, true, "", None))
}

pub async fn reset(
    req: HttpRequest,
    state: web::Data<AppState>,
    token: web::Path<String>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let password = form.get("password").unwrap_or_default();
    match take::reset(&state.db, &token, password).await {
        Ok(()) => Ok(super::done(&req, "/login", Message::PasswordSet)),
        Err(e @ AccountError::Invalid(_)) => {
            let m = e.to_string();
            Ok(join_page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &token,
                true,
                "",
                Some(&m),
            ))
        }
        Err(e) => Err(super::account::account_error(e)),
    }
}

/// An admin's reset link for someone (`/admin/users/{id}`, action
/// `reset-link`): a page that shows it once.
pub async fn reset_link(
    req: &HttpRequest,
    state: &AppState,
    admin: &crate::accounts::User,
    for_user: i64,
) -> Result<HttpResponse, AppError> {
    let m = crate::teams::Manager {
        user_id: admin.id,
        name: &admin.username,
        is_admin: admin.is_admin,
    };
    let token = invitations::make_reset(&state.db, m, for_user).await?;
    let base = super::client::public_base(req, &state.config);
    let text = format!(
        "Send this link to the person: it lets them choose a new password once, within a day. \
         It is shown only now: {base}/reset/{token}"
    );
    Ok(respond::message(
        StatusCode::OK,
        "Password-reset link",
        &text,
    ))
}
