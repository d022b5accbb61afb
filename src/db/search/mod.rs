//! Search statements, one engine per file: FTS5 with bm25 on SQLite, `tsvector`
//! and pg_trgm on PostgreSQL. What to look for (the user's words cut into plain
//! terms, never syntax) and how hits are shown is decided above, in
//! `documents::search`; these take the terms as values and return rows of the
//! caller's shape (`id, title, updated_at, snippet`), best first.

use crate::db::documents::places;

pub mod postgres;
pub mod queue;
pub mod sqlite;

/// The search's folder and tag filters on `d`: the folder as `$5`, the folder
/// with a slash as `$6`, the tag as `$7`, each NULL for none (then the
/// condition holds without reading the row). PostgreSQL is told their types.
pub fn in_scope(postgres: bool) -> String {
    let text = if postgres { "::text" } else { "" };
    format!(
        "($5{text} IS NULL OR {}) AND ($7{text} IS NULL OR {})",
        places::in_folder("d.folder", "$5", "$6"),
        places::has_tag("$7")
    )
}

/// A search's folder and tag filters; none by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    /// A tidied folder path.
    pub folder: Option<String>,
    pub tag: Option<String>,
}

impl Scope {
    pub fn is_empty(&self) -> bool {
        self.folder.is_none() && self.tag.is_none()
    }

    /// The values a search statement binds for its filters, in order: the
    /// folder, the folder with a slash (what every path under it starts with),
    /// the tag; NULL each where there is none.
    pub fn values(&self) -> [Option<String>; 3] {
        [
            self.folder.clone(),
            self.folder.as_ref().map(|f| format!("{f}/")),
            self.tag.clone(),
        ]
    }
}
