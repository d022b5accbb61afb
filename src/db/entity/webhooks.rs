//! Webhooks: addresses told of events by signed HTTP posts.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhooks")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub url: String,
    pub secret: String,
    /// The events it wants, space-separated.
    pub events: String,
    /// The one space it hears of (a space manager's), or every space (an admin's).
    pub space_id: Option<i64>,
    pub owner_id: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
