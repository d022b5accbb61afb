//! Where a document lives and how it is tagged: a folder path such as
//! `Projects/Garden` (empty for the root) and a set of tags. Both are what the
//! user typed, tidied: a folder's parts trimmed and joined by single slashes,
//! tags trimmed, without a leading `#`, lower case, each once. A folder grants
//! nothing: who may read a document is decided as before.

use super::{DocError, visible};

pub const MAX_FOLDER_CHARS: usize = 200;
pub const MAX_FOLDER_DEPTH: usize = 12;
pub const MAX_TAG_CHARS: usize = 50;
pub const MAX_TAGS: usize = 30;

/// A folder and tags that passed every rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    pub folder: String,
    pub tags: Vec<String>,
}

impl Place {
    /// From the editor's fields: a folder path and comma-separated tags.
    pub fn parse(folder: &str, tags: &str) -> Result<Self, DocError> {
        Self::from_parts(folder, tags.split(','))
    }

    /// From a folder path and the tags one by one (the API, front matter).
    pub fn from_parts<'a>(
        folder: &str,
        tags: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, DocError> {
        Ok(Self {
            folder: folder_path(folder)?,
            tags: tag_set(tags)?,
        })
    }

    /// The tags as the database stores them: a JSON array.
    pub fn tags_json(&self) -> String {
        tags_json(&self.tags)
    }
}

pub use crate::db::documents::{tags_from_json, tags_json};

/// `a / b//c ` -> `a/b/c`; a part may not be `.` or `..`, hold a backslash or a
/// control character, or be invisible.
pub fn folder_path(raw: &str) -> Result<String, DocError> {
    let parts: Vec<&str> = raw
        .split('/')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    for part in &parts {
        if matches!(*part, "." | "..") {
            return Err(invalid_folder(format!(
                "a folder cannot be called \"{part}\""
            )));
        }
        if part.chars().any(|c| c == '\\' || c.is_control()) {
            return Err(invalid_folder(
                "a folder's name cannot hold a backslash or a control character".into(),
            ));
        }
        if !part.chars().any(visible) {
            return Err(invalid_folder(
                "each part of the path needs a visible character".into(),
            ));
        }
    }
    if parts.len() > MAX_FOLDER_DEPTH {
        return Err(invalid_folder(format!(
            "it is {} folders deep; the limit is {MAX_FOLDER_DEPTH}",
            parts.len()
        )));
    }
    let path = parts.join("/");
    let chars = path.chars().count();
    if chars > MAX_FOLDER_CHARS {
        return Err(invalid_folder(format!(
            "the path is {chars} characters long; the limit is {MAX_FOLDER_CHARS}"
        )));
    }
    Ok(path)
}

fn invalid_folder(why: String) -> DocError {
    DocError::Invalid(format!(
        "The folder cannot be used: {why}. Write a path such as Projects/Garden, or leave it empty."
    ))
}

/// Each tag trimmed, without a leading `#`, its spaces single, lower case; empty
/// ones skipped, repeats dropped (first kept).
pub fn tag_set<'a>(raw: impl IntoIterator<Item = &'a str>) -> Result<Vec<String>, DocError> {
    let mut tags: Vec<String> = Vec::new();
    for tag in raw {
        let Some(tag) = tag_name(tag)? else { continue };
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(DocError::Invalid(format!(
            "The document has {} tags; the limit is {MAX_TAGS}.",
            tags.len()
        )));
    }
    Ok(tags)
}

/// One tag as quire keeps it, or `None` for an empty one.
pub fn tag_name(raw: &str) -> Result<Option<String>, DocError> {
    let words: Vec<&str> = raw
        .trim()
        .trim_start_matches('#')
        .split_whitespace()
        .collect();
    let tag = words.join(" ").to_lowercase();
    if tag.is_empty() {
        return Ok(None);
    }
    if tag.chars().any(|c| c.is_control() || c == ',') || !tag.chars().any(visible) {
        return Err(DocError::Invalid(format!(
            "The tag \"{}\" cannot be used: a tag needs a visible character and holds no \
             comma or control character.",
            tag.escape_debug()
        )));
    }
    let chars = tag.chars().count();
    if chars > MAX_TAG_CHARS {
        return Err(DocError::Invalid(format!(
            "A tag is {chars} characters long; the limit is {MAX_TAG_CHARS}."
        )));
    }
    Ok(Some(tag))
}

/// The folders from the root down to `folder`, each with its full path:
/// `a/b` -> [("a", "a"), ("b", "a/b")].
pub fn breadcrumbs(folder: &str) -> Vec<(String, String)> {
    let mut path = String::new();
    folder
        .split('/')
        .filter(|p| !p.is_empty())
        .map(|part| {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(part);
            (part.to_owned(), path.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_tidied_and_unsafe_names_refused() {
        assert_eq!(
            folder_path(" Projects / Garden// ").unwrap(),
            "Projects/Garden"
        );
        assert_eq!(folder_path("/").unwrap(), "");
        assert_eq!(folder_path("").unwrap(), "");
        for bad in ["a/../b", ".", "a\\b", "a/\u{200B}/b", "x\u{7}"] {
            assert!(folder_path(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(folder_path(&"a/".repeat(MAX_FOLDER_DEPTH + 1)).is_err());
        assert!(folder_path(&"é".repeat(MAX_FOLDER_CHARS + 1)).is_err());
        assert_eq!(folder_path("Été/日本").unwrap(), "Été/日本");
    }

    #[test]
    fn tags_are_lower_case_once_each_and_hashes_are_dropped() {
        let place = Place::parse("", " #Garden, to   Read,garden,, ,ÉTÉ").unwrap();
        assert_eq!(place.tags, ["garden", "to read", "été"]);
        assert_eq!(place.tags_json(), r#"["garden","to read","été"]"#);
        assert_eq!(tags_from_json(&place.tags_json()), place.tags);
        assert!(Place::parse("", &"x".repeat(MAX_TAG_CHARS + 1)).is_err());
        let many: Vec<String> = (0..=MAX_TAGS).map(|n| format!("t{n}")).collect();
        assert!(Place::parse("", &many.join(",")).is_err());
        assert!(Place::from_parts("", ["a,b"]).is_err());
    }

    #[test]
    fn breadcrumbs_name_each_folder_with_its_path() {
        assert_eq!(
            breadcrumbs("a/b"),
            [("a".into(), "a".into()), ("b".into(), "a/b".into())]
        );
        assert!(breadcrumbs("").is_empty());
    }
}
