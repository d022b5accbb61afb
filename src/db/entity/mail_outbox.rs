//! Mail waiting to be sent (and, for a while, what was sent or given up on).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_outbox")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: Option<i64>,
    pub to_addr: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub unsubscribe: String,
    pub created_at: i64,
    pub next_try_at: i64,
    pub attempts: i64,
    pub claimed_until: Option<i64>,
    pub sent_at: Option<i64>,
    pub failed_at: Option<i64>,
    pub last_error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
