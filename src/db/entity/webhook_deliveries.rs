//! Each event posted to a webhook: waiting, tried, answered.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_deliveries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub hook_id: i64,
    pub event: String,
    pub body: String,
    pub created_at: i64,
    /// When it is tried next; none once delivered or given up.
    pub next_try_at: Option<i64>,
    pub tries: i64,
    pub status: Option<i64>,
    pub answer_ms: Option<i64>,
    pub error: Option<String>,
    pub sent_at: Option<i64>,
    pub claimed_until: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
