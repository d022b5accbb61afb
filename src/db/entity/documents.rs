//! Documents: the current text and its rendered HTML.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "documents")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    pub id: String,
    pub title: String,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
    pub render_version: i64,
    pub size: i64,
    pub body: String,
    pub html: String,
    pub cjk: String,
    pub owner_id: Option<i64>,
    pub visibility: String,
    pub public_token: Option<String>,
    /// `html`, zstd-compressed; `html` is empty where this is set.
    pub html_z: Option<Vec<u8>>,
    /// A path such as `Projects/Garden`; empty for the root.
    pub folder: String,
    /// A JSON array of lower-case tag names.
    pub tags: String,
    /// The keys of the documents its page links to, a JSON array
    /// (`db::documents::links`).
    pub links: String,
    /// The file it was imported from (`tomatoes.md`); exports name it so.
    pub file_name: Option<String>,
    /// The space it is in; none: its owner's personal space.
    pub space_id: Option<i64>,
    /// The keys of its other titles (front matter `aliases`), a JSON array.
    pub aliases: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
