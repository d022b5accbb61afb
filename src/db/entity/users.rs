//! quire's accounts.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub username: String,
    pub password_hash: String,
    pub is_admin: i64,
    pub disabled_at: Option<i64>,
    pub created_at: i64,
    /// Where they last made a document: 0 their personal space, else a space's id.
    pub last_space_id: Option<i64>,
    /// 1: they watch what they create, edit or are mentioned in.
    pub watch_own: i64,
    /// When they last looked at recent changes.
    pub changes_seen_at: Option<i64>,
    /// The hash of the token that opens their feed of recent changes.
    pub feed_token_hash: Option<Vec<u8>>,
    /// Where their notices are mailed, how often, the key of their
    /// unsubscribe links, and when their last mail was written.
    pub email: Option<String>,
    pub mail_every: String,
    pub mail_key: Option<String>,
    pub mailed_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
