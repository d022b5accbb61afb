//! Each other title a document answers links by (its front matter's
//! `aliases`, as link keys), kept by the schema's triggers from
//! `documents.aliases` (never written by quire, never copied).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_aliases")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub alias: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
