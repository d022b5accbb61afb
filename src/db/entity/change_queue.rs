//! Changes waiting to be told: revisions, shares, space memberships, comments, a document's other events.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "change_queue")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub kind: String,
    pub doc_seq: Option<i64>,
    pub rev: Option<i64>,
    pub space_id: Option<i64>,
    pub user_id: Option<i64>,
    pub group_id: Option<i64>,
    pub actor_id: Option<i64>,
    pub created_at: i64,
    pub comment_id: Option<i64>,
    /// An event's particulars (JSON), for `kind` 'event'.
    pub detail: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
