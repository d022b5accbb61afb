//! Groups as admin pages: the list (`/admin/groups`) and one group's people.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::admin::Admin;
use super::form::FormData;
use super::message::Message;
use super::{AppState, done, respond};
use crate::documents::DocError;
use crate::teams::{GroupRow, Manager, Member, groups};
use crate::web::error::AppError;

fn manager(admin: &Admin) -> Manager<'_> {
    Manager {
        user_id: admin.0.id,
        name: &admin.0.username,
        is_admin: true,
    }
}

fn refused(e: DocError) -> Result<String, AppError> {
    match e {
        DocError::Invalid(m) => Ok(m),
        other => Err(other.into()),
    }
}

#[derive(Template)]
#[template(path = "spaces/groups_partial.html")]
struct GroupsPartial<'a> {
    groups: Vec<GroupRow>,
    error: Option<&'a str>,
}

async fn groups_page(
    state: &AppState,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let groups = groups::list(&state.db).await?;
    Ok(respond::fragment(
        status,
        "Groups",
        &GroupsPartial { groups, error },
    ))
}

pub async fn groups_list(
    state: web::Data<AppState>,
    _admin: Admin,
) -> Result<HttpResponse, AppError> {
    groups_page(&state, StatusCode::OK, None).await
}

pub async fn group_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    admin: Admin,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    match groups::create(&state.db, manager(&admin), form.require("name")?).await {
        Ok(id) => Ok(done(
            &req,
            &format!("/admin/groups/{id}"),
            Message::GroupSaved,
        )),
        Err(e) => {
            let m = refused(e)?;
            groups_page(&state, StatusCode::UNPROCESSABLE_ENTITY, Some(&m)).await
        }
    }
}

#[derive(Template)]
#[template(path = "spaces/group_partial.html")]
struct GroupPartial<'a> {
    group: GroupRow,
    members: Vec<Member>,
    error: Option<&'a str>,
}

async fn group_page(
    state: &AppState,
    id: i64,
    status: StatusCode,
    error: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let group = groups::find(&state.db, id).await?;
    let members = groups::members(&state.db, id).await?;
    let title = group.name.clone();
    Ok(respond::fragment(
        status,
        &title,
        &GroupPartial {
            group,
            members,
            error,
        },
    ))
}

pub async fn group_show(
    state: web::Data<AppState>,
    _admin: Admin,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    group_page(&state, id.into_inner(), StatusCode::OK, None).await
}

pub async fn group_update(
    req: HttpRequest,
    state: web::Data<AppState>,
    admin: Admin,
    id: web::Path<i64>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let m = manager(&admin);
    let (result, to) = match form.require("action")? {
        "add" => (
            groups::add(&state.db, m, id, form.require("name")?).await,
            format!("/admin/groups/{id}"),
        ),
        "remove" => {
            let user = form
                .require("user")?
                .parse()
                .map_err(|_| AppError::BadRequest("Choose a person to remove.".into()))?;
            (
                groups::remove(&state.db, m, id, user).await,
                format!("/admin/groups/{id}"),
            )
        }
        "delete" => (
            groups::delete(&state.db, m, id).await,
            "/admin/groups".to_owned(),
        ),
        other => return Err(AppError::BadRequest(format!("Unknown action {other:?}."))),
    };
    match result {
        Ok(()) => Ok(done(&req, &to, Message::GroupSaved)),
        Err(e) => {
            let m = refused(e)?;
            group_page(&state, id, StatusCode::UNPROCESSABLE_ENTITY, Some(&m)).await
        }
    }
}
