//! The editor: what it shows (`EditForm`, the user's own text in whatever state
//! it is), read from a submitted form in one place, and its page built in one.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use super::doc_templates::StartOffer;
use super::drafts::DraftNote;
use super::error::AppError;
use super::form::FormData;
use super::place_fields::PlaceFields;
use super::respond;
use crate::documents::{self, DocError, DocId, Document, Submitted, Tags, Valid};

/// What the editor shows: the user's own text, whatever state it is in.
#[derive(Clone)]
pub struct EditForm {
    /// `None` for a document that does not exist yet.
    pub id: Option<String>,
    pub title: String,
    pub body: String,
    pub version: i64,
    pub cap: usize,
    /// The folder and tags fields; `None` leaves them out (the save keeps them).
    pub place: Option<PlaceFields>,
    /// A new document's draft key: its autosave keeps the text under it until the
    /// document is created (`None` for a document that exists).
    pub draft_key: Option<String>,
    /// A new document's template (its id): the save fills its `{{title}}`.
    pub from_template: Option<String>,
}

/// Errors carrying a form are logged with their `Debug`: sizes, never the
/// user's words.
impl std::fmt::Debug for EditForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditForm")
            .field("id", &self.id)
            .field("title_bytes", &self.title.len())
            .field("body_bytes", &self.body.len())
            .field("version", &self.version)
            .finish()
    }
}

impl EditForm {
    /// The editor's fields as a save sent them, for document `id` (`None`: a
    /// new one): the editor shows them again if the save is refused. A form
    /// without its title or body is refused.
    pub fn sent(form: &FormData, id: Option<&DocId>, cap: usize) -> Result<Self, AppError> {
        let (title, body) = (form.require("title")?, form.require("body")?);
        Self::read(form, id, cap, (title, body))
    }

    /// The editor's fields as the Preview button sent them: a missing title or
    /// body is empty, since a preview shows whatever there is.
    pub fn previewed(form: &FormData, id: Option<&DocId>, cap: usize) -> Result<Self, AppError> {
        let text = (
            form.get("title").unwrap_or_default(),
            form.get("body").unwrap_or_default(),
        );
        Self::read(form, id, cap, text)
    }

    fn read(
        form: &FormData,
        id: Option<&DocId>,
        cap: usize,
        (title, body): (&str, &str),
    ) -> Result<Self, AppError> {
        Ok(Self {
            id: id.map(|i| i.to_string()),
            title: title.to_owned(),
            body: body.to_owned(),
            version: if id.is_some() { form.version()? } else { 1 },
            cap,
            place: PlaceFields::sent(form.get("folder"), form.get("tags")),
            draft_key: match id {
                Some(_) => None,
                None => documents::new_drafts::key(form.get("draft_key")),
            },
            from_template: match id {
                Some(_) => None,
                None => form
                    .get("from_template")
                    .and_then(DocId::parse)
                    .map(|t| t.to_string()),
            },
        })
    }

    /// A document as it is saved, to edit.
    pub fn of(doc: Document, cap: usize) -> Self {
        let place = PlaceFields::of(&doc);
        Self {
            id: Some(doc.id),
            title: doc.title,
            body: doc.body,
            version: doc.version,
            cap,
            place: Some(place),
            draft_key: None,
            from_template: None,
        }
    }

    /// A document not written yet: empty, in the root, with a draft key of its own.
    pub fn new_document(cap: usize) -> Self {
        Self {
            id: None,
            title: String::new(),
            body: String::new(),
            version: 1,
            cap,
            place: Some(PlaceFields::default()),
            draft_key: Some(documents::new_drafts::fresh_key()),
            from_template: None,
        }
    }

    /// The same form showing this title and text.
    pub fn with_text(mut self, title: String, body: String) -> Self {
        (self.title, self.body) = (title, body);
        self
    }

    /// The same form, its save based on `version`.
    pub fn based_on(mut self, version: i64) -> Self {
        self.version = version;
        self
    }

    /// The same form with these folder and tags fields, where it shows them.
    pub fn placed(mut self, folder: String, tags: String) -> Self {
        if let Some(place) = self.place.as_mut() {
            (place.folder, place.tags) = (folder, tags);
        }
        self
    }

    /// With the folders in use offered in the folder field.
    pub fn offering(mut self, folders: Vec<(String, i64)>) -> Self {
        self.place = self.place.map(|p| p.offering(folders));
        self
    }

    /// The document as the form has it, checked by every rule of a save.
    pub fn valid(&self) -> Result<Valid, DocError> {
        let place = self.place.as_ref();
        Valid::try_from(Submitted {
            title: &self.title,
            body: &self.body,
            cap: self.cap,
            folder: place.map(|p| p.folder.as_str()),
            tags: place.map(|p| Tags::Listed(&p.tags)),
        })
    }

    pub fn action(&self) -> String {
        match &self.id {
            Some(id) => format!("/d/{id}"),
            None => "/docs".into(),
        }
    }
    pub fn cancel(&self) -> String {
        match &self.id {
            Some(id) => format!("/d/{id}"),
            None => "/".into(),
        }
    }
    pub fn size(&self) -> usize {
        self.body.len()
    }
    pub fn cap_text(&self) -> String {
        format!("{} bytes", documents::group(self.cap))
    }
}

/// The editor page. Made with `EditPartial::of` and the parts a handler has to
/// add, then `page`.
#[derive(Template)]
#[template(path = "documents/edit_partial.html")]
pub struct EditPartial<'a> {
    form: &'a EditForm,
    error: Option<&'a str>,
    /// What was done without saving (a file attached without JavaScript).
    notice: Option<&'a str>,
    /// The document's files, with the Markdown that shows each.
    files: Vec<FileView>,
    draft: Option<DraftNote>,
    /// The text rendered, when asked for without JavaScript (sanitised HTML).
    preview: Option<String>,
    /// A new document's templates.
    start: Option<StartOffer>,
}

impl<'a> EditPartial<'a> {
    /// The editor showing `form`, and nothing else yet.
    pub fn of(form: &'a EditForm) -> Self {
        Self {
            form,
            error: None,
            notice: None,
            files: Vec::new(),
            draft: None,
            preview: None,
            start: None,
        }
    }

    /// With the templates a new document may start from.
    pub fn starting(mut self, start: StartOffer) -> Self {
        self.start = Some(start);
        self
    }

    /// Why the text was not saved.
    pub fn error(mut self, error: &'a str) -> Self {
        self.error = Some(error);
        self
    }

    /// What was done without saving.
    pub fn notice(mut self, notice: &'a str) -> Self {
        self.notice = Some(notice);
        self
    }

    pub fn files(mut self, files: Vec<FileView>) -> Self {
        self.files = files;
        self
    }

    /// An unsaved draft offered back (or just put back).
    pub fn draft(mut self, draft: Option<DraftNote>) -> Self {
        self.draft = draft;
        self
    }

    /// The text rendered (sanitised HTML).
    pub fn preview(mut self, html: String) -> Self {
        self.preview = Some(html);
        self
    }

    /// The page, titled for a new document or an edited one.
    pub fn page(&self, status: StatusCode) -> HttpResponse {
        let title = match self.form.id {
            Some(_) => "Edit document",
            None => "New document",
        };
        respond::fragment(status, title, self)
    }
}

/// A document's file as the editor lists it.
pub struct FileView {
    pub name: String,
    pub size: String,
    pub url: String,
    pub markdown: String,
}

impl FileView {
    pub fn of(doc_id: &str, f: &crate::documents::attachments::FileInfo) -> Self {
        use crate::documents::attachments;
        Self {
            name: f.name.clone(),
            size: crate::documents::human_size(usize::try_from(f.size).unwrap_or(0)),
            url: attachments::url(doc_id, &f.name),
            markdown: attachments::markdown(doc_id, &f.name, &f.media_type),
        }
    }
}

#[cfg(test)]
mod log_tests {
    use super::EditForm;
    use crate::web::error::AppError;

    #[test]
    fn a_refused_form_is_logged_without_the_users_text() {
        let err = AppError::Form {
            status: actix_web::http::StatusCode::PAYLOAD_TOO_LARGE,
            message: "Too large".into(),
            form: Box::new(
                EditForm::new_document(10)
                    .with_text("Salary review".into(), "private words".into()),
            ),
        };
        let logged = format!("{err:?} {err}");
        assert!(!logged.contains("private words"), "{logged}");
        assert!(!logged.contains("Salary review"), "{logged}");
        assert!(logged.contains("body_bytes: 13"), "{logged}");
    }
}
