//! The documents aggregate: every statement on `documents`, its revisions, shares
//! and drafts. The domain (`crate::documents`) decides; this stores. A document as
//! quire reads it is `Document` (whole) or `Summary` (a listing row); the columns a
//! whole read selects come from the entity, so a new column is read everywhere
//! once `Document` has a field for it. What a user edits is written as one
//! `Fields`, whose columns are listed once below, for a save and a new document.

mod access;
pub mod attachments;
pub mod drafts;
pub mod dump;
pub mod grouped;
mod html;
pub mod import_rows;
pub mod links;
pub mod listing;
pub mod new_drafts;
mod one_trip;
pub mod places;
pub mod rerender;
pub mod revisions;
pub mod shares;
mod store;
mod stored_texts;

pub(crate) use access::access_for;
pub use access::{Access, find_text_with_access, find_with_access, owned, visible};
pub(crate) use access::{level, spaces_of};
pub use html::PackedHtml;
pub use store::*;

use std::sync::LazyLock;

use sea_orm::{IdenStatic, Iterable};

use super::entity::documents::Column;

#[derive(Clone)]
pub struct Document {
    pub seq: i64,
    pub id: String,
    pub title: String,
    pub body: String,
    /// The rendered page, uncompressed (see `PackedHtml` for how it is stored).
    pub html: String,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
    pub owner_id: Option<i64>,
    pub visibility: String,
    pub public_token: Option<String>,
    /// Which renderer made `html`; not `RENDER_VERSION` means it must be redone.
    pub render_version: i64,
    /// The viewer's access, where the query computed it (`None` where it did not).
    pub access: Access,
    /// How many people it is shared with by name, where the query counted them.
    pub shared_with: i64,
    /// The owner's name, where the query looked it up.
    pub owner_name: Option<String>,
    /// A path such as `Projects/Garden`; empty for the root.
    pub folder: String,
    pub tags: Vec<String>,
    /// Whether another document links to it, where the query looked.
    pub linked: bool,
    /// Who saved this version, where the query looked (a stale save's page names them).
    pub saved_by: Option<String>,
    /// The space it is in; none: its owner's personal space.
    pub space_id: Option<i64>,
    /// That space's name, where the query looked it up.
    pub space_name: Option<String>,
    /// How many people are members of that space, where the query counted them.
    pub space_people: i64,
    /// What the page's discussion holds, where the query looked (the
    /// document page's does): see `Talk`.
    pub talk: Option<Talk>,
}

/// What a document's discussion holds, read with the document where the page
/// shows it: a page nobody discussed then asks nothing more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Talk {
    /// It has comments.
    pub comments: bool,
    /// It has open suggestions.
    pub suggestions: bool,
    /// Its space keeps commenting to those who may edit.
    pub editors_comment: bool,
}

impl crate::db::FromRow for Document {
    fn from_row(row: crate::db::Row) -> Result<Self, crate::db::Error> {
        let packed: Option<Vec<u8>> = row.get_or_default("html_z")?;
        let plain: String = row.get_or_default("html")?;
        // A page stored before pages were compressed is written again, compressed,
        // the way a page from an older renderer is: on its first view.
        let render_version = match packed {
            None if !plain.is_empty() => 0,
            _ => row.try_get("render_version")?,
        };
        let html = html::unpack(packed, plain)?;
        Ok(Self {
            seq: row.try_get("seq")?,
            id: row.try_get("id")?,
            title: row.try_get("title")?,
            body: row.try_get("body")?,
            html,
            version: row.try_get("version")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            deleted_at: row.try_get("deleted_at")?,
            owner_id: row.try_get("owner_id")?,
            visibility: row.try_get("visibility")?,
            public_token: row.try_get("public_token")?,
            render_version,
            access: Access::from_level(row.get_or_default("access")?),
            shared_with: row.get_or_default("shared_with")?,
            owner_name: row.get_or_default("owner_name")?,
            folder: row.get_or_default("folder")?,
            tags: tags_from_json(&row.get_or_default::<String>("tags")?),
            linked: row.get_or_default::<i64>("linked")? != 0,
            saved_by: row.get_or_default("saved_by")?,
            space_id: row.get_or_default("space_id")?,
            space_name: row.get_or_default("space_name")?,
            space_people: row.get_or_default("space_people")?,
            talk: row.get_or_default::<Option<i64>>("talk")?.map(|bits| Talk {
                comments: bits & 1 != 0,
                suggestions: bits & 2 != 0,
                editors_comment: bits & 4 != 0,
            }),
        })
    }
}

/// Tags as the database stores them (a JSON array), read back; anything else
/// reads as none.
pub fn tags_from_json(json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_default()
}

/// Tags as the database stores them.
pub fn tags_json(tags: &[String]) -> String {
    serde_json::to_string(tags).unwrap_or_else(|_| "[]".into())
}

/// For logs: which document and its sizes, never its text.
impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("id", &self.id)
            .field("version", &self.version)
            .field("title_bytes", &self.title.len())
            .field("body_bytes", &self.body.len())
            .field("deleted_at", &self.deleted_at)
            .finish()
    }
}

/// A row of a listing: no body, no HTML.
#[derive(Debug, Clone)]
pub struct Summary {
    pub id: String,
    pub title: String,
    pub size: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
    /// Who may see it, where the listing asked (the live list does).
    pub owner_id: Option<i64>,
    pub owner_name: Option<String>,
    pub visibility: String,
    pub shared_with: i64,
    pub public_token: Option<String>,
    /// Where the listing asked (the live list does).
    pub folder: String,
    /// The tags, comma-separated, where the listing asked.
    pub tags: String,
    /// Its space (none: its owner's personal space) and that space's name, where the listing asked.
    pub space_id: Option<i64>,
    pub space_name: Option<String>,
}
crate::db::from_row!(Summary { id, title, size, updated_at, deleted_at } defaults { owner_id, owner_name, visibility, shared_with, public_token, folder, tags, space_id, space_name });

impl Summary {
    /// The tags one by one, in order.
    pub fn tag_list(&self) -> Vec<&str> {
        let mut tags: Vec<&str> = self.tags.split(',').filter(|t| !t.is_empty()).collect();
        tags.sort_unstable();
        tags
    }
}

/// What a user edits of a document, as a save or a new document writes it: the
/// domain makes it from a checked document (`documents::Valid`), and
/// `fields_set`, `fields_insert` and `bind_fields` write it. A new editable
/// column is a field here, an entry in `OPTIONAL` and one in `optional`.
#[derive(Clone)]
pub struct Fields {
    pub title: String,
    pub body: String,
    /// A path such as `Projects/Garden`; `None` keeps the document's (a new
    /// document: the root).
    pub folder: Option<String>,
    /// A JSON array (see `tags_json`); `None` keeps the document's (a new
    /// document: none).
    pub tags: Option<String>,
}

/// The columns of `Fields` a save may leave as they are, each with what a new
/// document takes when it is not given one.
const OPTIONAL: [(&str, &str); 2] = [("folder", "''"), ("tags", "'[]'")];

impl Fields {
    /// The values of `OPTIONAL`'s columns, in its order (`None`: keep).
    fn optional(&self) -> [Option<&str>; OPTIONAL.len()] {
        [self.folder.as_deref(), self.tags.as_deref()]
    }
}

/// How many values `bind_fields` binds: the title, the body, then `OPTIONAL`'s.
const FIELD_VALUES: usize = 2 + OPTIONAL.len();

/// `Fields`' columns as an `UPDATE` sets them, their values numbered from
/// `$first` on as `bind_fields` binds them. The size is the body's.
fn fields_set(first: usize) -> String {
    let (title, body) = (first, first + 1);
    let mut sql = format!("title = ${title}, size = octet_length(${body}), body = ${body}");
    for (n, (column, _)) in (body + 1..).zip(OPTIONAL) {
        sql.push_str(&format!(", {column} = coalesce(${n}, {column})"));
    }
    sql
}

/// `Fields`' columns as an `INSERT` names them, and their values numbered from
/// `$first` on as `bind_fields` binds them.
fn fields_insert(first: usize) -> (String, String) {
    let (title, body) = (first, first + 1);
    let mut columns = "title, size, body".to_owned();
    let mut values = format!("${title}, octet_length(${body}), ${body}");
    for (n, (column, default)) in (body + 1..).zip(OPTIONAL) {
        columns.push_str(&format!(", {column}"));
        values.push_str(&format!(", coalesce(${n}, {default})"));
    }
    (columns, values)
}

/// `query` with `fields` bound after the values it has, in the order
/// `fields_set` and `fields_insert` number them.
fn bind_fields<S: crate::db::sql::Shape>(
    query: crate::db::Query<S>,
    fields: &Fields,
) -> crate::db::Query<S> {
    let query = query.bind(fields.title.as_str()).bind(fields.body.as_str());
    fields
        .optional()
        .into_iter()
        .fold(query, |q, value| q.bind(value))
}

/// Columns a whole read leaves out: the search text (as long as the body, read by
/// nobody) and the size (a listing's, derived from the body).
const NOT_READ: [&str; 2] = ["cjk", "size"];

/// The columns of a whole read, from the entity, each prefixed by `alias.`.
fn columns_of(alias: &str) -> String {
    Column::iter()
        .map(|c| c.as_str())
        .filter(|c| !NOT_READ.contains(c))
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `documents.seq, documents.id, ...`: what `Document` reads.
pub(crate) static COLUMNS: LazyLock<String> = LazyLock::new(|| columns_of("documents"));

/// `COLUMNS` with the HTML left empty: for a reader that has no use for the
/// stored page (a save renders its own), which would be decompressed for nothing.
pub(crate) static PAGELESS_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    COLUMNS
        .replace("documents.html_z", "NULL AS html_z")
        .replace("documents.html", "'' AS html")
});

/// `COLUMNS` with the body and HTML left empty: for a statement that wrote
/// them, whose caller has them already (16 KB less to copy back for 8 KB).
pub(crate) static WRITTEN_COLUMNS: LazyLock<String> =
    LazyLock::new(|| PAGELESS_COLUMNS.replace("documents.body", "'' AS body"));
