//! The JSON API's folders and tags: what the token's user may read, counted,
//! for a client that draws a tree or offers tags. Same rules as the list page:
//! only live documents the user may read count; a folder grants nothing.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::AppState;
use super::api::ApiError;
use super::api_types::ErrorJson;
use super::middleware::session::CurrentUser;
use super::params::caller;
use crate::documents;

/// A folder that directly holds documents the user may read.
#[derive(Serialize, ToSchema)]
#[schema(as = Folder)]
pub struct FolderJson<'a> {
    /// Its path, such as `Projects/Garden`; empty for the top level.
    path: &'a str,
    /// How many documents are directly in it (not in the folders under it).
    #[schema(minimum = 1)]
    documents: i64,
}

/// Every folder holding documents the user may read, by path.
#[derive(Serialize, ToSchema)]
#[schema(as = FolderList)]
pub struct FoldersJson<'a> {
    folders: Vec<FolderJson<'a>>,
}

/// A tag of documents the user may read.
#[derive(Serialize, ToSchema)]
#[schema(as = Tag)]
pub struct TagJson<'a> {
    name: &'a str,
    /// How many of those documents carry it.
    #[schema(minimum = 1)]
    documents: i64,
}

/// The most used tags first.
#[derive(Serialize, ToSchema)]
#[schema(as = TagList)]
pub struct TagsJson<'a> {
    tags: Vec<TagJson<'a>>,
}

#[utoipa::path(
    get,
    path = "/api/v1/folders",
    operation_id = "listFolders",
    tag = "documents",
    summary = "The folders of the documents the token's user may read, each with how many it holds",
    responses(
        (status = 200, body = FoldersJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
    )
)]
pub async fn api_folders(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let folders = documents::folders(&state.db, caller(&user)).await?;
    Ok(HttpResponse::Ok().json(FoldersJson {
        folders: folders
            .iter()
            .map(|(path, documents)| FolderJson {
                path,
                documents: *documents,
            })
            .collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/tags",
    operation_id = "listTags",
    tag = "documents",
    summary = "The tags of the documents the token's user may read, the most used first (at most 60)",
    responses(
        (status = 200, body = TagsJson),
        (status = 401, description = "No token, or one that is revoked or unknown", body = ErrorJson,
            headers(("WWW-Authenticate" = String))),
    )
)]
pub async fn api_tags(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let tags = documents::tags(&state.db, caller(&user)).await?;
    Ok(HttpResponse::Ok().json(TagsJson {
        tags: tags
            .iter()
            .map(|(name, documents)| TagJson {
                name,
                documents: *documents,
            })
            .collect(),
    }))
}
