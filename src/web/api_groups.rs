//! The JSON API's groups: every group (anyone signed in sees the names, to
//! share with them), a new one and its members (administrators).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::api::ApiError;
use super::api_spaces::{forbidden_as, id_in_path};
use super::api_types::ErrorJson;
use super::middleware::session::CurrentUser;
use super::spaces::manager;
use crate::teams::groups;

/// A group's refusals in the API's words (a document's would say "document").
fn said(e: crate::documents::DocError) -> ApiError {
    match e {
        crate::documents::DocError::NotFound => {
            ApiError::Status(StatusCode::NOT_FOUND, "No such group or member.".into())
        }
        other => forbidden_as(other, "Only administrators can change groups."),
    }
}

/// A group of people.
#[derive(Serialize, ToSchema)]
#[schema(as = Group)]
pub struct GroupJson {
    id: i64,
    /// Unique, case aside.
    name: String,
    /// How many people are in it.
    people: i64,
}

#[derive(Serialize, ToSchema)]
#[schema(as = GroupList)]
pub struct GroupsJson {
    groups: Vec<GroupJson>,
}

fn group_json(g: crate::teams::GroupRow) -> GroupJson {
    GroupJson {
        id: g.id,
        name: g.name,
        people: g.people,
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/groups",
    operation_id = "listGroups",
    tag = "groups",
    summary = "Every group, by name (any user may see them, to share with them)",
    responses(
        (status = 200, body = GroupsJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
    )
)]
pub async fn api_groups(
    state: web::Data<AppState>,
    _user: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let list = groups::list(&state.db).await?;
    Ok(HttpResponse::Ok().json(GroupsJson {
        groups: list.into_iter().map(group_json).collect(),
    }))
}

/// A new group.
#[derive(Deserialize, ToSchema)]
#[schema(as = GroupInput)]
pub struct GroupInput {
    /// 1 to 80 characters, unique (case aside).
    #[schema(min_length = 1, max_length = 80)]
    name: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/groups",
    operation_id = "createGroup",
    tag = "groups",
    summary = "A new, empty group (administrators)",
    request_body = GroupInput,
    responses(
        (status = 201, description = "Made", body = GroupJson,
            links(
                ("members" = (operation_id = "listGroupMembers", parameters(("path.id" = "$response.body#/id")))),
                ("addMember" = (operation_id = "putGroupMember", parameters(("path.id" = "$response.body#/id")))),
            )),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user is not an administrator", body = ErrorJson),
        (status = 422, description = "The name is empty, too long or taken", body = ErrorJson),
    )
)]
pub async fn api_group_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    input: web::Json<GroupInput>,
) -> Result<HttpResponse, ApiError> {
    let id = groups::create(&state.db, manager(&user), &input.name)
        .await
        .map_err(said)?;
    let made = groups::find(&state.db, id).await?;
    Ok(HttpResponse::Created().json(group_json(made)))
}

/// A person in a group.
#[derive(Serialize, ToSchema)]
#[schema(as = GroupMember)]
pub struct GroupMemberJson {
    /// The person's id (to remove them).
    id: i64,
    /// Their username.
    name: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = GroupMemberList)]
pub struct GroupMembersJson {
    members: Vec<GroupMemberJson>,
}

fn group_id(raw: &str) -> Result<i64, ApiError> {
    id_in_path(raw, "No such group.")
}

#[utoipa::path(
    get,
    path = "/api/v1/groups/{id}/members",
    operation_id = "listGroupMembers",
    tag = "groups",
    summary = "The people in a group, by name",
    params(("id" = i64, Path, description = "The group's id")),
    responses(
        (status = 200, body = GroupMembersJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such group", body = ErrorJson),
    )
)]
pub async fn api_group_members(
    state: web::Data<AppState>,
    _user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = group_id(&id)?;
    groups::find(&state.db, id).await.map_err(said)?;
    let members = groups::members(&state.db, id).await?;
    Ok(HttpResponse::Ok().json(GroupMembersJson {
        members: members
            .into_iter()
            .map(|m| GroupMemberJson {
                id: m.id,
                name: m.name,
            })
            .collect(),
    }))
}

/// A person to add to a group.
#[derive(Deserialize, ToSchema)]
#[schema(as = GroupMemberInput)]
pub struct GroupMemberInput {
    /// The person's username.
    #[schema(min_length = 1, max_length = 80)]
    name: String,
}

#[utoipa::path(
    put,
    path = "/api/v1/groups/{id}/members",
    operation_id = "putGroupMember",
    tag = "groups",
    summary = "Adds a person to a group (administrators); adding a member again changes nothing",
    params(("id" = i64, Path, description = "The group's id")),
    request_body = GroupMemberInput,
    responses(
        (status = 204, description = "Saved"),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user is not an administrator", body = ErrorJson),
        (status = 404, description = "No such group", body = ErrorJson),
        (status = 422, description = "No person of that name", body = ErrorJson),
    )
)]
pub async fn api_group_member_put(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<GroupMemberInput>,
) -> Result<HttpResponse, ApiError> {
    groups::add(&state.db, manager(&user), group_id(&id)?, &input.name)
        .await
        .map_err(said)?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    delete,
    path = "/api/v1/groups/{id}/members/{user_id}",
    operation_id = "deleteGroupMember",
    tag = "groups",
    summary = "Takes a person out of a group (administrators)",
    params(
        ("id" = i64, Path, description = "The group's id"),
        ("user_id" = i64, Path, description = "The person's id (`listGroupMembers`)"),
    ),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user is not an administrator", body = ErrorJson),
        (status = 404, description = "No such group, or the person is not in it", body = ErrorJson),
    )
)]
pub async fn api_group_member_delete(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, person) = path.into_inner();
    let person = id_in_path(&person, "No such member.")?;
    groups::remove(&state.db, manager(&user), group_id(&id)?, person)
        .await
        .map_err(said)?;
    Ok(HttpResponse::NoContent().finish())
}
