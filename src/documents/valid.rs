//! A document that passed every rule (`Valid`), made only by parsing what someone
//! submitted (`Submitted`): nothing outside this file builds one field by field,
//! and it becomes what is stored (`store::Fields`) here too.

use super::{
    DocError, Document, MAX_TITLE_CHARS, as_stored, place, store, stored_len, visible, without_nul,
};

/// A document as someone submitted it (the editor, the API, a script), nothing
/// checked yet: what a `Valid` is parsed from.
#[derive(Clone, Copy, Default)]
pub struct Submitted<'a> {
    pub title: &'a str,
    pub body: &'a str,
    /// The most bytes the body may take, as stored.
    pub cap: usize,
    /// A folder path as typed; `None` keeps the document's folder (a new
    /// document: the root).
    pub folder: Option<&'a str>,
    /// Tags as typed; `None` keeps the document's tags (a new document: none).
    pub tags: Option<Tags<'a>>,
}

impl<'a> Submitted<'a> {
    /// A title and body, everything else kept: what the other fields a form
    /// or a request carries are added to (`..Submitted::text(…)`).
    pub fn text(title: &'a str, body: &'a str, cap: usize) -> Self {
        Self {
            title,
            body,
            cap,
            ..Self::default()
        }
    }
}

/// Tags as they came.
#[derive(Clone, Copy)]
pub enum Tags<'a> {
    /// Comma-separated, as the editor's field has them.
    Listed(&'a str),
    /// One by one, as the API sends them.
    Each(&'a [String]),
}

/// A title and body that passed every rule, ready to store.
#[derive(Debug, Clone)]
pub struct Valid {
    title: String,
    body: String,
    /// The folder to move it to; `None` keeps its folder (a new document:
    /// the root).
    folder: Option<String>,
    /// The tags to give it; `None` keeps its tags (a new document: none).
    tags: Option<Vec<String>>,
}

impl TryFrom<Submitted<'_>> for Valid {
    type Error = DocError;

    /// The size cap is checked first, before any other work on the body, and
    /// on the size the body will have as stored; then the title, the folder
    /// and the tags.
    fn try_from(sent: Submitted<'_>) -> Result<Self, DocError> {
        let size = stored_len(sent.body);
        if size > sent.cap {
            return Err(DocError::TooLarge {
                size,
                cap: sent.cap,
            });
        }
        let title = without_nul(sent.title.trim());
        if !title.chars().any(visible) {
            return Err(DocError::EmptyTitle);
        }
        let chars = title.chars().count();
        if chars > MAX_TITLE_CHARS {
            return Err(DocError::TitleTooLong { chars });
        }
        let folder = sent.folder.map(place::folder_path).transpose()?;
        // Tags given with the text also take the `#tags` written in it.
        let tags = match sent.tags {
            None => None,
            Some(Tags::Listed(tags)) => Some(place::tag_set(tags.split(','))?),
            Some(Tags::Each(tags)) => Some(place::tag_set(tags.iter().map(String::as_str))?),
        }
        .map(|tags| super::inline_tags::with_inline(tags, sent.body));
        Ok(Self {
            title: title.into_owned(),
            body: as_stored(sent.body).into_owned(),
            folder,
            tags,
        })
    }
}

impl Valid {
    /// A title and body alone, the folder and tags kept: `try_from` with
    /// nothing else submitted.
    pub fn parse(title: &str, body: &str, cap: usize) -> Result<Self, DocError> {
        Self::try_from(Submitted::text(title, body, cap))
    }

    /// The same document with this title and text (a merge's), checked by
    /// the rules of a save; everything else as it was.
    pub(super) fn with_text(&self, title: &str, body: &str, cap: usize) -> Result<Self, DocError> {
        let text = Self::parse(title, body, cap)?;
        Ok(Self {
            title: text.title,
            body: text.body,
            ..self.clone()
        })
    }

    /// An old revision's text and place, to be saved again as they were
    /// stored: the history shows them, so restoring one is never refused (an
    /// import keeps titles and sizes a save would not).
    pub(super) fn restored(title: String, body: String, folder: String, tags: Vec<String>) -> Self {
        Self {
            title,
            body,
            folder: Some(folder),
            tags: Some(tags),
        }
    }

    /// The same text with the folder and tags the domain worked out from
    /// checked ones (a merge, a change to several documents); `None` keeps
    /// the document's.
    pub(super) fn with_place(mut self, folder: Option<String>, tags: Option<Vec<String>>) -> Self {
        self.folder = folder;
        self.tags = tags;
        self
    }

    pub fn title(&self) -> &str {
        &self.title
    }

    pub fn body(&self) -> &str {
        &self.body
    }

    /// The folder to write, `None` to keep the document's.
    pub fn folder(&self) -> Option<&str> {
        self.folder.as_deref()
    }

    /// The tags to write, `None` to keep the document's.
    pub fn tags(&self) -> Option<&[String]> {
        self.tags.as_deref()
    }

    /// What a save or a new document writes of it.
    pub(super) fn fields(&self) -> store::Fields {
        store::Fields {
            title: self.title.clone(),
            body: self.body.clone(),
            folder: self.folder.clone(),
            tags: self.tags.as_deref().map(place::tags_json),
        }
    }

    /// True when saving it over `current` would change nothing: every field it
    /// writes already holds its value there.
    pub(super) fn changes_nothing_in(&self, current: &Document) -> bool {
        let same_place = self.folder().is_none_or(|f| f == current.folder)
            && self.tags().is_none_or(|t| t == current.tags.as_slice());
        self.title == current.title && self.body == current.body && same_place
    }
}
