//! One document shared with a whole group, and whether its members may edit.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_group_shares")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub group_id: i64,
    pub can_edit: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
