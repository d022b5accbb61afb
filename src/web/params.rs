//! What most handlers take from a request: the page asked for, a document id
//! from the path, and the signed-in user as the actor of a change.

use serde::Deserialize;

use super::session::CurrentUser;
use crate::documents::{Actor, DocId};
use crate::web::error::AppError;

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<i64>,
}

impl PageQuery {
    pub fn page(self) -> i64 {
        self.page.unwrap_or(1).max(1)
    }
}

pub fn actor(user: &CurrentUser) -> Actor<'_> {
    Actor {
        user_id: user.0.id,
        name: &user.0.username,
    }
}

pub fn parse_id(raw: &str) -> Result<DocId, AppError> {
    DocId::parse(raw).ok_or(AppError::NotFound)
}
