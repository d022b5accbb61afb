//! The editor's folder and tags fields: what the user typed, shown again as
//! typed when a save is refused, and the folders already in use offered as
//! suggestions. A form without these fields saves the document where it is.

use crate::documents::Document;

#[derive(Clone, Debug, Default)]
pub struct PlaceFields {
    pub folder: String,
    /// Comma-separated.
    pub tags: String,
    /// Folders in use, offered while typing (the edit and new pages only).
    pub known: Vec<String>,
    /// A new document's space as a query parameter says it (`personal`, or a
    /// space's number); empty: where its writer last made one. An existing
    /// document's space, the same way, for the `[[` suggestions.
    pub space: String,
    /// The spaces a new document may go to: (parameter, name); the new page only.
    pub spaces: Vec<(String, String)>,
}

impl PlaceFields {
    /// The fields as a document has them now.
    pub fn of(doc: &Document) -> Self {
        Self {
            folder: doc.folder.clone(),
            tags: doc.tags.join(", "),
            space: doc
                .space_id
                .map_or_else(|| "personal".to_owned(), |id| id.to_string()),
            ..Self::default()
        }
    }

    /// The fields as a form sent them (its `folder` and `tags`), `None` when
    /// it sent neither.
    pub fn sent(folder: Option<&str>, tags: Option<&str>) -> Option<Self> {
        if folder.is_none() && tags.is_none() {
            return None;
        }
        Some(Self {
            folder: folder.unwrap_or_default().to_owned(),
            tags: tags.unwrap_or_default().to_owned(),
            ..Self::default()
        })
    }

    /// A new document's space choice: the spaces its writer may write in, and
    /// the one chosen.
    pub fn in_spaces(self, chosen: String, spaces: Vec<(i64, String)>) -> Self {
        let mut offered = vec![("personal".to_owned(), "Personal (only you)".to_owned())];
        offered.extend(spaces.into_iter().map(|(id, name)| (id.to_string(), name)));
        Self {
            space: chosen,
            spaces: offered,
            ..self
        }
    }

    /// With the folders in use offered.
    pub fn offering(self, folders: Vec<(String, i64)>) -> Self {
        Self {
            known: folders
                .into_iter()
                .map(|(f, _)| f)
                .filter(|f| !f.is_empty())
                .collect(),
            ..self
        }
    }
}
