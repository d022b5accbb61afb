//! Comments under documents: one level of replies, an optional quoted passage.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "comments")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub doc_seq: i64,
    pub parent_id: Option<i64>,
    pub author_id: Option<i64>,
    pub author: String,
    pub body: String,
    pub html: String,
    pub quote: Option<String>,
    pub created_at: i64,
    pub edited_at: Option<i64>,
    pub resolved_at: Option<i64>,
    pub resolved_by: Option<String>,
    pub deleted_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
