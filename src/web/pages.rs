//! Page views: the askama templates and the plain structs they render. A handler
//! builds a partial; `layout::wrap` decides whether it goes out alone (htmx) or
//! inside the layout (a normal page load).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use crate::documents::{self, Document, Summary};

/// A rendered partial waiting for the layout middleware to finish the response.
pub struct Fragment {
    pub title: String,
    /// UTF-8 HTML.
    pub html: Vec<u8>,
}

/// Builds a response whose body the layout middleware fills in.
/// "1 document", "2 documents": a count with its noun in the right number.
pub fn counted(n: impl std::borrow::Borrow<u64>, one: &str, many: &str) -> String {
    let n = *n.borrow();
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn fragment(status: StatusCode, title: &str, partial: &impl Template) -> HttpResponse {
    rendered(status, title.to_owned(), partial.render())
}

/// A response for a partial already rendered (or that failed to).
pub fn rendered(
    status: StatusCode,
    title: String,
    html: Result<impl Into<Vec<u8>>, askama::Error>,
) -> HttpResponse {
    match html {
        Ok(html) => {
            let mut res = HttpResponse::build(status).finish();
            res.extensions_mut().insert(Fragment {
                title,
                html: html.into(),
            });
            res
        }
        Err(e) => {
            tracing::error!(error = %e, "template failed to render");
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("quire could not draw this page; the server log has the details.")
        }
    }
}

#[derive(Clone)]
pub struct DocView {
    pub id: String,
    /// Shown through a public link: no actions.
    pub public: bool,
    pub can_edit: bool,
    pub is_owner: bool,
    pub title: String,
    pub html: String,
    pub version: i64,
    pub updated: String,
    pub updated_iso: String,
    pub size: String,
    /// Whose it is, shown to everyone but the owner.
    pub owner: Option<String>,
    /// Who else sees it, shown to the owner ("shared with 2 people").
    pub sharing: Option<String>,
    /// Its folder from the root down: (name, path) each.
    pub crumbs: Vec<(String, String)>,
    pub tags: Vec<String>,
    /// The documents the reader may read that link to this one: (id, title).
    pub linked_from: Vec<(String, String)>,
}

impl DocView {
    /// A value as a link's query parameter carries it.
    pub fn encoded(&self, value: &str) -> String {
        crate::query_param::encoded(value)
    }
}

/// Who besides the owner sees a document, in a few words; `None` when nobody does.
pub fn sharing_note(visibility: &str, shared_with: i64, public_link: bool) -> Option<String> {
    let mut parts = Vec::new();
    match visibility {
        "read" => parts.push("everyone can read".to_owned()),
        "edit" => parts.push("everyone can edit".to_owned()),
        _ => {}
    }
    if shared_with > 0 {
        parts.push(format!(
            "shared with {}",
            counted(shared_with.max(0) as u64, "person", "people")
        ));
    }
    if public_link {
        parts.push("public link on".to_owned());
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

impl From<&Document> for DocView {
    fn from(d: &Document) -> Self {
        let is_owner = d.access.may_own();
        Self {
            id: d.id.clone(),
            public: false,
            can_edit: d.access.may_edit(),
            is_owner,
            owner: if is_owner { None } else { d.owner_name.clone() },
            sharing: if is_owner {
                sharing_note(&d.visibility, d.shared_with, d.public_token.is_some())
            } else {
                None
            },
            title: d.title.clone(),
            html: d.html.clone(),
            version: d.version,
            updated: fmt_time(d.updated_at),
            updated_iso: iso_time(d.updated_at),
            size: documents::human_size(d.body.len()),
            crumbs: documents::place::breadcrumbs(&d.folder),
            tags: d.tags.clone(),
            linked_from: Vec::new(),
        }
    }
}

pub struct Row {
    pub id: String,
    pub title: String,
    pub when: String,
    pub when_iso: String,
    pub size: String,
    /// Whose it is, when not the viewer's.
    pub owner: Option<String>,
    /// Who else sees it, on the viewer's own documents.
    pub sharing: Option<String>,
    /// Its folder (empty for the root) and tags, where the listing read them.
    pub folder: String,
    pub tags: Vec<String>,
}

impl Row {
    /// A row as `viewer` sees it.
    pub fn seen_by(s: &Summary, viewer: i64) -> Self {
        let mine = s.owner_id.is_none_or(|o| o == viewer);
        Self {
            owner: if mine { None } else { s.owner_name.clone() },
            sharing: if mine {
                sharing_note(&s.visibility, s.shared_with, s.public_token.is_some())
            } else {
                None
            },
            ..Self::from(s)
        }
    }
}

impl From<&Summary> for Row {
    fn from(s: &Summary) -> Self {
        let at = s.deleted_at.unwrap_or(s.updated_at);
        Self {
            id: s.id.clone(),
            title: s.title.clone(),
            when: fmt_time(at),
            when_iso: iso_time(at),
            size: documents::human_size(s.size.max(0) as usize),
            owner: None,
            sharing: None,
            folder: s.folder.clone(),
            tags: s.tag_list().into_iter().map(str::to_owned).collect(),
        }
    }
}

pub fn fmt_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

/// A moment as people read it: the UTC text (what shows without JavaScript) in a
/// `<time>` whose `datetime` the page script shows as local and relative time.
/// Rendered with `|safe`: both parts are digits, dashes, colons and letters of
/// quire's own formats.
pub struct Stamp {
    text: String,
    iso: String,
}

impl Stamp {
    pub fn at(ms: i64) -> Self {
        Self {
            text: fmt_time(ms),
            iso: iso_time(ms),
        }
    }
}

impl std::fmt::Display for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, r#"<time datetime="{}">{}</time>"#, self.iso, self.text)
    }
}

pub fn iso_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

#[derive(Template)]
#[template(path = "documents/show_partial.html")]
pub struct ShowPartial {
    pub doc: DocView,
}

/// An unsaved draft the editor offers back (or has just put back).
pub struct DraftNote {
    pub when: String,
    pub when_iso: String,
    pub base: i64,
    /// Someone saved since the draft's base version: saving it will merge.
    pub behind: bool,
    /// The editor already holds the draft's text.
    pub restored: bool,
}

/// A document's file as the editor lists it.
pub struct FileView {
    pub name: String,
    pub size: String,
    pub url: String,
    pub markdown: String,
}

impl FileView {
    pub fn of(doc_id: &str, f: &crate::documents::files::FileInfo) -> Self {
        use crate::documents::files;
        Self {
            name: f.name.clone(),
            size: crate::documents::human_size(usize::try_from(f.size).unwrap_or(0)),
            url: files::url(doc_id, &f.name),
            markdown: files::markdown(doc_id, &f.name, &f.media_type),
        }
    }
}

#[derive(Template)]
#[template(path = "trash/list_partial.html")]
pub struct TrashPartial {
    pub rows: Vec<Row>,
    pub page: i64,
    pub more: bool,
}

#[derive(Template)]
#[template(path = "message_partial.html")]
pub struct MessagePartial<'a> {
    pub heading: &'a str,
    pub text: &'a str,
}

pub fn message(status: StatusCode, heading: &str, text: &str) -> HttpResponse {
    fragment(status, heading, &MessagePartial { heading, text })
}
