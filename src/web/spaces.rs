//! Spaces as pages: the spaces a person is in (`/spaces`), and one space's
//! settings and members (`/spaces/{id}`), changed by its managers and admins.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::{AppState, done, respond};
use crate::documents::DocError;
use crate::teams::{self, Manager, Member, Role, SpaceRow, spaces};
use crate::web::error::AppError;

pub fn manager(user: &CurrentUser) -> Manager<'_> {
    Manager {
        user_id: user.0.id,
        name: &user.0.username,
        is_admin: user.0.is_admin,
    }
}

/// A refusal the person can fix comes back on the page with its message;
/// a refusal of rights says whose they are.
fn refused(e: DocError) -> Result<String, AppError> {
    match e {
        DocError::Invalid(m) => Ok(m),
        DocError::Forbidden => Err(AppError::Forbidden(
            "Only the space's managers and administrators can change that.".into(),
        )),
        other => Err(other.into()),
    }
}

pub fn role_word(level: i64) -> &'static str {
    Role::from_level(level).map_or("", Role::word)
}

#[derive(Template)]
#[template(path = "spaces/list_partial.html")]
struct ListPartial<'a> {
    spaces: Vec<SpaceRow>,
    is_admin: bool,
    error: Option<&'a str>,
}

impl ListPartial<'_> {
    fn role(&self, level: &i64) -> &'static str {
        role_word(*level)
    }
}

async fn list_page(
    state: &AppState,
    user: &CurrentUser,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let spaces = spaces::list(&state.db, manager(user)).await?;
    let page = ListPartial {
        spaces,
        is_admin: user.0.is_admin,
        error,
    };
    Ok(respond::fragment(status, "Spaces", &page))
}

pub async fn spaces_list(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    list_page(&state, &user, StatusCode::OK, None).await
}

/// `default` from a form: a role, or empty for none.
fn default_role(form: &FormData) -> Result<Option<Role>, DocError> {
    match form.get("default_role").unwrap_or_default() {
        "" | "none" => Ok(None),
        r => Role::parse(r).map(Some),
    }
}

pub async fn space_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let made = match default_role(&form) {
        Ok(role) => spaces::create(&state.db, manager(&user), form.require("name")?, role).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(id) => Ok(done(&req, &format!("/spaces/{id}"), Message::SpaceSaved)),
        Err(e) => {
            let m = refused(e)?;
            list_page(&state, &user, StatusCode::UNPROCESSABLE_ENTITY, Some(&m)).await
        }
    }
}

#[derive(Template)]
#[template(path = "spaces/space_partial.html")]
struct SpacePartial<'a> {
    space: SpaceRow,
    members: Vec<Member>,
    may_manage: bool,
    is_admin: bool,
    error: Option<&'a str>,
}

impl SpacePartial<'_> {
    fn role(&self, level: &i64) -> &'static str {
        role_word(*level)
    }

    fn default_is(&self, word: &str) -> bool {
        role_word(self.space.default_role.unwrap_or(0)) == word
    }
}

async fn space_page(
    state: &AppState,
    user: &CurrentUser,
    id: i64,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let m = manager(user);
    let space = spaces::find(&state.db, m, id).await?;
    let members = spaces::members(&state.db, m, id).await?;
    let title = space.name.clone();
    let page = SpacePartial {
        may_manage: spaces::may_manage(m, &space),
        space,
        members,
        is_admin: user.0.is_admin,
        error,
    };
    Ok(respond::fragment(status, &title, &page))
}

pub async fn space_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    space_page(&state, &user, id.into_inner(), StatusCode::OK, None).await
}

pub async fn space_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let m = manager(&user);
    let here = format!("/spaces/{id}");
    let (result, message, to) = match form.require("action")? {
        "settings" => {
            let result = match default_role(&form) {
                Ok(role) => spaces::update(&state.db, m, id, form.require("name")?, role).await,
                Err(e) => Err(e),
            };
            let result = match (result, form.get("comments")) {
                (Ok(()), Some(who)) => {
                    spaces::set_comment_rule(&state.db, m, id, who == "edit").await
                }
                (other, _) => other,
            };
            let result = match (result, form.get("review")) {
                (Ok(()), Some(how)) => spaces::set_review(&state.db, m, id, how == "on").await,
                (other, _) => other,
            };
            (result, Message::SpaceSaved, here)
        }
        "member" => {
            let result = match Role::parse(form.require("role")?) {
                Ok(role) => spaces::put_member(&state.db, m, id, form.require("name")?, role).await,
                Err(e) => Err(e),
            };
            (result, Message::MembersSaved, here)
        }
        "remove" => {
            let member = form
                .require("member")?
                .parse()
                .map_err(|_| AppError::BadRequest("Choose a member to remove.".into()))?;
            (
                spaces::remove_member(&state.db, m, id, member).await,
                Message::MembersSaved,
                here,
            )
        }
        "delete" => {
            if form.get("confirm") != Some("yes") {
                let ask = "Tick the box to confirm removing the space.";
                return space_page(
                    &state,
                    &user,
                    id,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some(ask),
                )
                .await;
            }
            (
                spaces::delete(&state.db, m, id).await,
                Message::SpaceRemoved,
                "/spaces".to_owned(),
            )
        }
        other => return Err(AppError::BadRequest(format!("Unknown action {other:?}."))),
    };
    match result {
        Ok(()) => Ok(done(&req, &to, message)),
        Err(e) => {
            let m = refused(e)?;
            space_page(
                &state,
                &user,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(&m),
            )
            .await
        }
    }
}

/// The spaces a person may write in, for the new-document and move choices:
/// (id, name).
pub async fn writable(
    state: &AppState,
    user: &CurrentUser,
) -> Result<Vec<(i64, String)>, AppError> {
    Ok(teams::spaces::writable(&state.db, user.0.id).await?)
}
