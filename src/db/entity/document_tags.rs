//! Each tag of each document, kept from `documents.tags` by the schema's
//! triggers (never written by quire, never copied: rebuilt as documents arrive).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_tags")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub tag: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
