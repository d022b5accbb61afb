//! The YAML front matter quire reads and writes: a `---` block of `key: value`
//! lines at the top of a file. quire understands its own keys (and `tags`, as
//! a list, a flow list or a comma-separated string) and keeps every other line
//! (aliases, ...) verbatim, so nothing a file carried is lost.

use crate::documents::front_matter::{block, scalar, tag_list, top_level_key};

/// Keys quire reads; any other key stays with the document's text.
const KEYS: &[&str] = &[
    "id",
    "title",
    "owner",
    "visibility",
    "created",
    "updated",
    "version",
    "rev",
    "author",
    "folder",
    "space",
];

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Meta {
    pub id: Option<String>,
    pub title: Option<String>,
    pub owner: Option<String>,
    pub visibility: Option<String>,
    pub created: Option<String>,
    pub updated: Option<String>,
    pub version: Option<String>,
    pub rev: Option<String>,
    pub author: Option<String>,
    pub folder: Option<String>,
    /// The space's name.
    pub space: Option<String>,
    /// The `tags` key's items, as written.
    pub tags: Option<Vec<String>>,
    /// Lines of keys quire does not use, each with its `\n`, in file order.
    pub extra: String,
}

impl Meta {
    fn set(&mut self, key: &str, value: String) {
        let slot = match key {
            "id" => &mut self.id,
            "title" => &mut self.title,
            "owner" => &mut self.owner,
            "visibility" => &mut self.visibility,
            "created" => &mut self.created,
            "updated" => &mut self.updated,
            "version" => &mut self.version,
            "rev" => &mut self.rev,
            "folder" => &mut self.folder,
            "space" => &mut self.space,
            _ => &mut self.author,
        };
        *slot = Some(value);
    }
}

/// Splits `text` into front matter and body. Text without a well-formed block is
/// all body. Lines quire does not use come back in `Meta::extra`.
pub fn split(text: &str) -> (Meta, &str) {
    let Some((lines, body)) = block(text) else {
        return (Meta::default(), text);
    };
    let mut meta = Meta::default();
    let all: Vec<&str> = lines.split_inclusive('\n').collect();
    let mut at = 0;
    while let Some(line) = all.get(at) {
        at += 1;
        let bare = line.trim_end_matches('\n');
        if top_level_key(bare) == Some("tags") && meta.tags.is_none() {
            let items: Vec<&str> = all[at..]
                .iter()
                .map(|l| l.trim_end_matches('\n'))
                .take_while(|l| l.starts_with([' ', '\t', '-']))
                .collect();
            if let Some(tags) = tag_list(&bare[5..], &items) {
                meta.tags = Some(tags);
                at += items.len();
                continue;
            }
        }
        let value = top_level_key(bare)
            .filter(|key| KEYS.contains(key))
            .and_then(|key| Some((key, scalar(&bare[key.len() + 1..])?)));
        match value {
            Some((key, value)) => meta.set(key, value),
            // Everything else (other keys, list items, indented values) is kept.
            None => {
                meta.extra.push_str(bare);
                meta.extra.push('\n');
            }
        }
    }
    (meta, body)
}

/// The body quire stores for an imported file: its text after the front matter,
/// with the lines quire did not use kept in a block of their own at the top.
pub fn stored_body(meta: &Meta, body: &str) -> String {
    if meta.extra.is_empty() {
        body.to_owned()
    } else {
        format!("---\n{}---\n{body}", meta.extra)
    }
}

/// Writes `fields` (already-formatted values) and the body, merging a front
/// matter block the body starts with into one block, as `split` + `stored_body`
/// would take them apart again.
pub fn write(fields: &[(&str, String)], body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 256);
    out.push_str("---\n");
    for (key, value) in fields {
        out.push_str(key);
        out.push_str(": ");
        out.push_str(value);
        out.push('\n');
    }
    let mut rest = body;
    if let Some((lines, after)) = block(body) {
        // Merge only what reads back identically: a block of keys quire does not use.
        let (meta, _) = split(body);
        let plain_close = body[4 + lines.len()..].starts_with("---\n");
        if !lines.is_empty() && plain_close && meta.extra == lines && meta == extra_only(lines) {
            out.push_str(lines);
            rest = after;
        }
    }
    out.push_str("---\n");
    out.push_str(rest);
    out
}

fn extra_only(lines: &str) -> Meta {
    Meta {
        extra: lines.to_owned(),
        ..Meta::default()
    }
}

/// A string value written so any YAML reader (and `split`) reads it back exactly.
pub fn quoted(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quire_keys_are_read_and_other_lines_kept() {
        let text = "---\ntitle: \"A \\\"quoted\\\" title\"\naliases:\n  - one\n  - two\nversion: 3\n---\n# Body\n";
        let (meta, body) = split(text);
        assert_eq!(meta.title.as_deref(), Some("A \"quoted\" title"));
        assert_eq!(meta.version.as_deref(), Some("3"));
        assert_eq!(meta.extra, "aliases:\n  - one\n  - two\n");
        assert_eq!(body, "# Body\n");
        assert_eq!(
            stored_body(&meta, body),
            "---\naliases:\n  - one\n  - two\n---\n# Body\n"
        );
    }

    #[test]
    fn tags_are_read_in_each_way_they_are_written_and_odd_ones_kept_as_text() {
        let tags = |text: &str| split(text).0.tags;
        let want = Some(vec!["garden".to_owned(), "to do".to_owned()]);
        assert_eq!(tags("---\ntags:\n  - garden\n  - \"to do\"\n---\n"), want);
        assert_eq!(tags("---\ntags: [garden, to do]\n---\n"), want);
        assert_eq!(tags("---\ntags: [\"garden\",\"to do\"]\n---\n"), want);
        assert_eq!(tags("---\ntags: garden, to do\n---\n"), want);
        assert_eq!(
            tags("---\ntags: garden seeds\n---\n"),
            Some(vec!["garden".to_owned(), "seeds".to_owned()])
        );
        let (meta, _) = split("---\ntags: {a: b}\n---\n");
        assert_eq!((meta.tags, meta.extra.as_str()), (None, "tags: {a: b}\n"));
        let written = write(
            &[(
                "tags",
                crate::documents::place::tags_json(&want.clone().unwrap()),
            )],
            "x",
        );
        assert_eq!(tags(&written), want);
    }

    #[test]
    fn text_without_a_closed_block_is_all_body() {
        for text in [
            "no front matter",
            "---\ntitle: x\nnever closed\n",
            "--- \nx",
        ] {
            let (meta, body) = split(text);
            assert_eq!(meta, Meta::default());
            assert_eq!(body, text);
        }
    }

    #[test]
    fn write_then_split_gives_back_every_field_and_the_body() {
        for body in [
            "plain\n",
            "---\naliases: [a]\n---\ntext",
            "---\ntitle: inner\n---\nkeeps its own block",
            "---\n\nstarts with a rule",
            "",
        ] {
            let out = write(
                &[("title", quoted("Tïtle: \"x\"")), ("version", "2".into())],
                body,
            );
            let (meta, rest) = split(&out);
            assert_eq!(meta.title.as_deref(), Some("Tïtle: \"x\""), "{out}");
            assert_eq!(stored_body(&meta, rest), body, "{out}");
        }
    }

    #[test]
    fn single_quotes_and_plain_scalars() {
        let (meta, _) = split("---\nowner: 'o''brien'\ncreated: 2024-01-02\n---\n");
        assert_eq!(meta.owner.as_deref(), Some("o'brien"));
        assert_eq!(meta.created.as_deref(), Some("2024-01-02"));
    }
}
