//! Who a document is shared with by name, and whether they may edit.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_shares")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    pub can_edit: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
