//! The JSON API's spaces: those the token's user is in (an admin: all), a new
//! one (admins), a space's members, and a document's move to another space.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::api::{ApiError, parse_id};
use super::api_types::ErrorJson;
use super::middleware::session::CurrentUser;
use super::params::actor;
use super::spaces::{manager, role_word};
use crate::documents::InSpace;
use crate::teams::{Role, moves, spaces};

/// A space as its member sees it.
#[derive(Serialize, ToSchema)]
#[schema(as = Space)]
pub struct SpaceJson {
    id: i64,
    name: String,
    /// The user's role there: `read`, `edit`, `manage`, or empty (an admin
    /// who is no member).
    role: &'static str,
    /// The role every new account gets there; null: members are added by hand.
    default_role: Option<&'static str>,
    /// How many people are members, themselves or through a group.
    people: i64,
    /// How many live documents it holds.
    documents: i64,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SpaceList)]
pub struct SpacesJson {
    spaces: Vec<SpaceJson>,
}

fn space_json(s: crate::teams::SpaceRow) -> SpaceJson {
    SpaceJson {
        id: s.id,
        name: s.name,
        role: role_word(s.role),
        default_role: s.default_role.and_then(Role::from_level).map(Role::word),
        people: s.people,
        documents: s.documents,
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/spaces",
    operation_id = "listSpaces",
    tag = "spaces",
    summary = "The spaces the token's user is a member of (an admin: every space), by name",
    responses(
        (status = 200, body = SpacesJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
    )
)]
pub async fn api_spaces(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let list = spaces::list(&state.db, manager(&user)).await?;
    Ok(HttpResponse::Ok().json(SpacesJson {
        spaces: list.into_iter().map(space_json).collect(),
    }))
}

/// A role as the API takes it.
#[derive(Deserialize, Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum RoleJson {
    Read,
    Edit,
    Manage,
}

impl From<RoleJson> for Role {
    fn from(r: RoleJson) -> Self {
        match r {
            RoleJson::Read => Role::Read,
            RoleJson::Edit => Role::Edit,
            RoleJson::Manage => Role::Manage,
        }
    }
}

/// A new space.
#[derive(Deserialize, ToSchema)]
#[schema(as = SpaceInput)]
pub struct SpaceInput {
    /// 1 to 80 characters, unique (case aside).
    #[schema(min_length = 1, max_length = 80)]
    name: String,
    /// The role every new account gets there; left out: none.
    default_role: Option<RoleJson>,
}

#[utoipa::path(
    post,
    path = "/api/v1/spaces",
    operation_id = "createSpace",
    tag = "spaces",
    summary = "A new space (administrators); its maker manages it",
    request_body = SpaceInput,
    responses(
        (status = 201, description = "Made", body = SpaceJson,
            links(
                ("members" = (operation_id = "listSpaceMembers", parameters(("path.id" = "$response.body#/id")))),
                ("addMember" = (operation_id = "putSpaceMember", parameters(("path.id" = "$response.body#/id")))),
            )),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user is not an administrator", body = ErrorJson),
        (status = 422, description = "The name is empty, too long or taken", body = ErrorJson),
    )
)]
pub async fn api_space_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    input: web::Json<SpaceInput>,
) -> Result<HttpResponse, ApiError> {
    let m = manager(&user);
    let id = spaces::create(
        &state.db,
        m,
        &input.name,
        input.default_role.map(Role::from),
    )
    .await
    .map_err(refusal)?;
    let made = spaces::find(&state.db, m, id).await?;
    Ok(HttpResponse::Created().json(space_json(made)))
}

/// A rights refusal in the API's words (a document's words would say "read").
fn refusal(e: crate::documents::DocError) -> ApiError {
    forbidden_as(
        e,
        "Only the space's managers and administrators can do that.",
    )
}

/// `e`, with a refusal said as `why` (403) instead of in a document's words.
pub(super) fn forbidden_as(e: crate::documents::DocError, why: &str) -> ApiError {
    match e {
        crate::documents::DocError::Forbidden => {
            ApiError::Status(StatusCode::FORBIDDEN, why.to_owned())
        }
        other => other.into(),
    }
}

/// A space's or group's id from the path; anything else is one that does not
/// exist (said in JSON, like every answer of the API).
pub(super) fn id_in_path(raw: &str, missing: &str) -> Result<i64, ApiError> {
    raw.parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ApiError::Status(StatusCode::NOT_FOUND, missing.to_owned()))
}

fn space_id(raw: &str) -> Result<i64, ApiError> {
    id_in_path(raw, "No such space.")
}

/// A member of a space.
#[derive(Serialize, ToSchema)]
#[schema(as = SpaceMember)]
pub struct MemberJson {
    /// The membership's id (to remove it).
    id: i64,
    /// A person's username or a group's name.
    name: String,
    /// `person` or `group`.
    kind: &'static str,
    role: &'static str,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SpaceMemberList)]
pub struct MembersJson {
    members: Vec<MemberJson>,
}

#[utoipa::path(
    get,
    path = "/api/v1/spaces/{id}/members",
    operation_id = "listSpaceMembers",
    tag = "spaces",
    summary = "A space's members, people and groups, highest role first",
    params(("id" = i64, Path, description = "The space's id")),
    responses(
        (status = 200, body = MembersJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such space, or the token's user is no member of it", body = ErrorJson),
    )
)]
pub async fn api_members(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let members = spaces::members(&state.db, manager(&user), space_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(MembersJson {
        members: members
            .into_iter()
            .map(|m| MemberJson {
                id: m.id,
                name: m.name,
                kind: if m.is_group { "group" } else { "person" },
                role: role_word(m.role),
            })
            .collect(),
    }))
}

/// A person or group to make a member, or whose role to change.
#[derive(Deserialize, ToSchema)]
#[schema(as = SpaceMemberInput)]
pub struct MemberInput {
    /// A person's username or a group's name (a person is looked for first).
    #[schema(min_length = 1, max_length = 80)]
    name: String,
    role: RoleJson,
}

#[utoipa::path(
    put,
    path = "/api/v1/spaces/{id}/members",
    operation_id = "putSpaceMember",
    tag = "spaces",
    summary = "Makes a person or group a member of the space with a role, or changes their role",
    params(("id" = i64, Path, description = "The space's id")),
    request_body = MemberInput,
    responses(
        (status = 204, description = "Saved"),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user does not manage the space", body = ErrorJson),
        (status = 404, description = "No such space, or the token's user is no member of it", body = ErrorJson),
        (status = 422, description = "No person or group of that name", body = ErrorJson),
    )
)]
pub async fn api_member_put(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<MemberInput>,
) -> Result<HttpResponse, ApiError> {
    spaces::put_member(
        &state.db,
        manager(&user),
        space_id(&id)?,
        &input.name,
        input.role.into(),
    )
    .await
    .map_err(refusal)?;
    Ok(HttpResponse::NoContent().finish())
}

/// Where a document goes.
#[derive(Deserialize, ToSchema)]
#[schema(as = MoveInput)]
pub struct MoveInput {
    /// The space's id; 0: the owner's personal space.
    #[schema(minimum = 0)]
    space: i64,
    /// False: only say who would gain and lose access (nothing moves).
    #[serde(default = "yes")]
    apply: bool,
}

fn yes() -> bool {
    true
}

/// What a move does to who may read the document.
#[derive(Serialize, ToSchema)]
#[schema(as = MovePlan)]
pub struct MoveJson {
    /// Whether it moved (false: the plan only).
    moved: bool,
    /// The people who may read it after the move and could not before.
    gains: Vec<String>,
    /// The people who could read it and may not after the move.
    loses: Vec<String>,
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/{id}/space",
    operation_id = "moveDocument",
    tag = "spaces",
    summary = "Moves a document to another space (its owner, or a manager of its space), saying who gains and loses access",
    params(("id" = String, Path, description = "The document's id")),
    request_body = MoveInput,
    responses(
        (status = 200, body = MoveJson),
        (status = 400, description = "The body is not JSON of this shape", body = ErrorJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
        (status = 403, description = "The token's user may not move it out of its space", body = ErrorJson),
        (status = 404, description = "No such document, or not readable by the token's user", body = ErrorJson),
        (status = 422, description = "The space does not exist or the user may not write in it", body = ErrorJson),
    )
)]
pub async fn api_move(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    input: web::Json<MoveInput>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let to = match input.space {
        0 => InSpace::Personal,
        n if n > 0 => InSpace::Id(n),
        _ => {
            return Err(ApiError::Status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "There is no such space.".into(),
            ));
        }
    };
    let plan = moves::move_document(&state.db, &id, actor(&user), to, input.apply)
        .await
        .map_err(|e| {
            forbidden_as(
                e,
                "Only its owner or a manager of its space can move it out.",
            )
        })?;
    Ok(HttpResponse::Ok().json(MoveJson {
        moved: input.apply,
        gains: plan.gains,
        loses: plan.loses,
    }))
}
