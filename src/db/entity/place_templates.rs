//! The template a space (`folder` empty) or one of its folders starts new
//! documents from.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "place_templates")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub space_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub folder: String,
    pub doc_seq: i64,
    pub set_by: Option<i64>,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
