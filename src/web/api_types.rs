//! The JSON API's bodies: what a request sends and a response answers, each
//! described for the API's OpenAPI document.

use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::documents::attachments::{self, Attached, FileInfo};
use crate::documents::{DocError, Document, Submitted, Summary, Tags, Valid};

/// A document: its Markdown text and its version.
#[derive(Serialize, ToSchema)]
#[schema(as = Document)]
pub struct DocJson<'a> {
    /// The document's id, as in its address.
    #[schema(min_length = 26, max_length = 26)]
    id: &'a str,
    title: &'a str,
    /// Markdown.
    body: &'a str,
    /// Moves by one with every save; sent back in `If-Match` to save over it.
    #[schema(minimum = 1)]
    version: i64,
    /// Milliseconds since 1970-01-01 UTC.
    created_at: i64,
    /// Milliseconds since 1970-01-01 UTC.
    updated_at: i64,
    /// The folder it lives in, a path such as `Projects/Garden`; empty for the root.
    folder: &'a str,
    /// Its tags, lower case.
    tags: &'a [String],
    /// The space it is in (`GET /api/v1/spaces`); null: its owner's personal space.
    space: Option<i64>,
}

/// A version as an `ETag` (and `If-Match`) carries it.
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

pub fn doc_response(status: StatusCode, d: &Document) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::ETAG, etag(d.version)))
        .json(DocJson {
            id: &d.id,
            title: &d.title,
            body: &d.body,
            version: d.version,
            created_at: d.created_at,
            updated_at: d.updated_at,
            folder: &d.folder,
            tags: &d.tags,
            space: d.space_id,
        })
}

/// A document in a list: no text.
#[derive(Serialize, ToSchema)]
#[schema(as = DocumentSummary)]
pub struct SummaryJson<'a> {
    #[schema(min_length = 26, max_length = 26)]
    id: &'a str,
    title: &'a str,
    /// The text's size in bytes.
    #[schema(minimum = 0)]
    size: i64,
    /// Milliseconds since 1970-01-01 UTC.
    updated_at: i64,
    /// The folder it lives in; empty for the root.
    folder: &'a str,
    /// Its tags, lower case, A to Z.
    tags: Vec<&'a str>,
}

impl<'a> SummaryJson<'a> {
    pub fn of(s: &'a Summary) -> Self {
        Self {
            id: &s.id,
            title: &s.title,
            size: s.size,
            updated_at: s.updated_at,
            folder: &s.folder,
            tags: s.tag_list(),
        }
    }
}

/// A page of the documents the token's user may read.
#[derive(Serialize, ToSchema)]
#[schema(as = DocumentList)]
pub struct ListJson<'a> {
    pub documents: Vec<SummaryJson<'a>>,
    /// How many documents the list holds, on every page.
    #[schema(minimum = 0)]
    pub total: i64,
    /// True when a next page has more.
    pub more: bool,
}

/// What a refused request is told.
#[derive(Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorJson {
    /// What went wrong, and what to do about it.
    pub error: String,
}

/// A save over a version that is no longer the document's.
#[derive(Serialize, ToSchema)]
#[schema(as = Stale)]
pub struct StaleJson {
    pub error: String,
    /// The document's version now (also in the `ETag` header).
    pub current_version: i64,
}

/// A document as it is to be: a new one, or a save over the version in `If-Match`.
#[derive(Deserialize, ToSchema)]
#[schema(as = DocumentInput)]
pub struct DocInput {
    /// At most 200 characters; leading and trailing spaces are dropped, and at
    /// least one visible character must remain (not a space, a control or
    /// format character, or another invisible one).
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]"
    )]
    pub title: String,
    /// Markdown, at most the server's `QUIRE_MAX_DOC_BYTES` (413 over it).
    pub body: String,
    /// The folder to put it in, a path such as `Projects/Garden` (parts
    /// trimmed, empty parts dropped; no `.` or `..` part, no backslash); empty
    /// for the root. Left out: a new document goes to the root, a saved one
    /// stays where it is.
    #[schema(max_length = 200, pattern = r"^[^\\\x00-\x1f\x7f-\x9f]*$")]
    pub folder: Option<String>,
    /// Its tags (stored lower case, without a leading `#`, each once; no
    /// commas). Left out: none for a new document, unchanged for a saved one.
    #[schema(max_items = 30, value_type = Option<Vec<TagText>>)]
    pub tags: Option<Vec<String>>,
    /// A new document's space (`GET /api/v1/spaces`; the user must be able to
    /// edit there), 0 for the user's personal space. Left out: where the user
    /// last made one, else the team space. A save ignores it (moving is
    /// `POST /api/v1/documents/{id}/space`).
    #[schema(minimum = 0)]
    pub space: Option<i64>,
}

/// One tag as the API takes it (the description's only: the field is a
/// string): at most 50 characters, a visible one among them, no comma or
/// control character.
struct TagText;

impl utoipa::PartialSchema for TagText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .max_length(Some(50))
            .pattern(Some(TAG_PATTERN))
            .into()
    }
}

impl ToSchema for TagText {}

/// `TagText`'s pattern: no comma or control character, and a visible one.
const TAG_PATTERN: &str = r"^[^,\x00-\x1f\x7f-\x9f]*[^,\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb][^,\x00-\x1f\x7f-\x9f]*$";

impl DocInput {
    /// The document as it is to be, or why not.
    pub fn valid(&self, cap: usize) -> Result<Valid, DocError> {
        // What the API does not carry, a save keeps.
        Valid::try_from(Submitted {
            folder: self.folder.as_deref(),
            tags: self.tags.as_deref().map(Tags::Each),
            ..Submitted::text(&self.title, &self.body, cap)
        })
    }
}

/// A file attached to a document.
#[derive(Serialize, ToSchema)]
#[schema(as = Attachment)]
pub struct AttachmentJson {
    /// The name the document's text uses for it (`![](name)`).
    name: String,
    #[schema(minimum = 1)]
    size: i64,
    /// The type it is served with, sniffed from its bytes; empty: served as a download.
    media_type: String,
    /// SHA-256 of the bytes, hex.
    #[schema(min_length = 64, max_length = 64)]
    sha256: String,
    /// Where the pages serve it (signed in).
    url: String,
    /// The Markdown that shows (an image) or links to (anything else) it.
    markdown: String,
}

impl From<Attached> for AttachmentJson {
    fn from(a: Attached) -> Self {
        Self {
            sha256: crate::transfer::hex(&a.hash),
            name: a.name,
            url: a.url,
            markdown: a.markdown,
            size: a.size,
            media_type: a.media_type,
        }
    }
}

impl AttachmentJson {
    /// A file as the API describes it.
    pub fn of(doc_id: &str, f: FileInfo) -> Self {
        Self {
            url: attachments::url(doc_id, &f.name),
            markdown: attachments::markdown(doc_id, &f.name, &f.media_type),
            sha256: crate::transfer::hex(&f.hash),
            size: f.size,
            media_type: f.media_type,
            name: f.name,
        }
    }
}
