//! A document as quire reads it from the database, whole or as a listing row.

#[derive(Clone)]
pub struct Document {
    pub seq: i64,
    pub id: String,
    pub title: String,
    pub body: String,
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
    /// The viewer's access level, where the query computed it (see `access`).
    pub access: i64,
    /// How many people it is shared with by name, where the query counted them.
    pub shared_with: i64,
    /// The owner's name, where the query looked it up.
    pub owner_name: Option<String>,
}
crate::db::from_row!(Document { seq, id, title, body, html, version, created_at, updated_at, deleted_at, owner_id, visibility, public_token, render_version } defaults { access, shared_with, owner_name });

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
}
crate::db::from_row!(Summary { id, title, size, updated_at, deleted_at } defaults { owner_id, owner_name, visibility, shared_with, public_token });

pub(super) const COLUMNS: &str = "seq, id, title, body, html, version, created_at, updated_at, \
     deleted_at, owner_id, visibility, public_token, render_version";
