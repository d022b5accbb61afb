//! Where each link between documents may lead: every document that has had
//! the link's title (or folder and title) while the link existed, kept by the
//! schema's triggers (never written by quire, never copied: rebuilt as
//! documents arrive). Which one a reader is shown is decided as they read.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_link_ends")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub from_seq: i64,
    /// The link's key, as in `document_links`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub target: String,
    /// A document the link may lead to.
    #[sea_orm(primary_key, auto_increment = false)]
    pub to_seq: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
