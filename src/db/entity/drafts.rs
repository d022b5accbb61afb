//! Unsaved changes, one per document and person.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "drafts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    pub title: String,
    pub body: String,
    pub base_version: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
