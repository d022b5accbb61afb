//! One page of an attached content's text (migrations/*/0030).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "attachment_pages")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    pub hash: Vec<u8>,
    pub page: i64,
    pub text: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
