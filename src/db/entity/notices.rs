//! What reached a person: their inbox.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notices")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub doc_seq: Option<i64>,
    pub space_id: Option<i64>,
    pub actor: Option<String>,
    pub first_rev: Option<i64>,
    pub last_rev: Option<i64>,
    pub count: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub read_at: Option<i64>,
    pub mailed_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
