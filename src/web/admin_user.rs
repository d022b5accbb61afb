//! One account, as an administrator manages it: rename, administrator rights,
//! and deletion with its documents given to someone else.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use super::AppState;
use super::admin::{Admin, UserView};
use super::respond;
use super::when::Stamp;
use crate::accounts::manage;
use crate::web::error::AppError;

pub struct Heir {
    pub id: i64,
    pub username: String,
}

#[derive(Template)]
#[template(path = "admin/user_partial.html")]
struct UserPartial {
    user: UserView,
    heirs: Vec<Heir>,
    me: i64,
}

pub async fn user_page(
    state: web::Data<AppState>,
    admin: Admin,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let all = manage::list_users(&state.db)
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let Some(found) = all.iter().find(|u| u.id == id) else {
        return Err(AppError::NotFound);
    };
    let user = UserView {
        id: found.id,
        username: found.username.clone(),
        is_admin: found.is_admin,
        disabled: found.disabled_at.is_some(),
        created: Stamp::at(found.created_at),
    };
    let heirs = all
        .iter()
        .filter(|u| u.id != id)
        .map(|u| Heir {
            id: u.id,
            username: u.username.clone(),
        })
        .collect();
    Ok(respond::fragment(
        StatusCode::OK,
        &format!("Account {}", user.username),
        &UserPartial {
            user,
            heirs,
            me: admin.0.id,
        },
    ))
}
