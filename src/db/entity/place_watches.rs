//! A person watching a space (`folder` empty) or one of its folders.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "place_watches")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub space_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub folder: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
