//! One-use links: to join (a new account) or to set a new password.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "invitations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: Vec<u8>,
    /// `join` or `reset`.
    pub kind: String,
    pub for_user: Option<i64>,
    pub created_by: Option<i64>,
    /// JSON: `[[space id, role], …]`.
    pub space_roles: String,
    /// JSON: `[group id, …]`.
    pub group_ids: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub used_by: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
