//! Team spaces: named shared places whose members read, edit or manage what is in them.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "spaces")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub name: String,
    /// The role each new account is given here (1 read, 2 edit, 3 manage), if any.
    pub default_role: Option<i64>,
    pub created_at: i64,
    /// Who may comment: 1 whoever may read, 2 only those who may edit.
    pub comment_role: i64,
    /// 1: only managers and each document's owner save; the others suggest.
    pub review_required: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
