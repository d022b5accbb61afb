//! Each link between documents, kept from `documents.links` by the schema's
//! triggers (never written by quire, never copied: rebuilt as documents arrive).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_links")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub from_seq: i64,
    /// The link's key: a title, or a folder and a title, lower-case.
    #[sea_orm(primary_key, auto_increment = false)]
    pub target: String,
    /// No longer used (NULL): where a link may lead is `document_link_ends`.
    pub to_seq: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
