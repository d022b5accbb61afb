//! Every saved version of a document.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "revisions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub rev: i64,
    pub title: String,
    pub text_hash: Vec<u8>,
    pub size: i64,
    pub added: i64,
    pub removed: i64,
    pub author: Option<String>,
    pub created_at: i64,
    /// The document's folder and tags as this revision left them.
    pub folder: String,
    pub tags: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
