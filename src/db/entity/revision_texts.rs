//! Each distinct text of a document once, compressed (a zstd delta against `base`, or whole).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "revision_texts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub doc_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub hash: Vec<u8>,
    pub base: Option<Vec<u8>>,
    pub depth: i64,
    pub raw_size: i64,
    pub data: Vec<u8>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
