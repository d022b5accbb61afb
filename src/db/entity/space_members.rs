//! A space's members, each a person or a group, with a role (1 read, 2 edit, 3 manage).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "space_members")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub space_id: i64,
    pub user_id: Option<i64>,
    pub group_id: Option<i64>,
    pub role: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
