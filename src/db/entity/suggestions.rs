//! Suggested edits: a new version of a document waiting to be accepted or declined.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "suggestions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub doc_seq: i64,
    pub author_id: Option<i64>,
    pub author: String,
    pub base_version: i64,
    pub title: String,
    pub body: String,
    pub note: String,
    pub state: String,
    pub decided_by: Option<String>,
    pub decided_at: Option<i64>,
    pub answer: Option<String>,
    pub accepted_version: Option<i64>,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
