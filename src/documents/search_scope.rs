//! What narrows a search besides its words: `tag:garden` (a tag) and
//! `in:Projects/Garden` (a folder and the folders under it), each maybe quoted
//! (`in:"Garden plans"`). A filter quire cannot use (`in:..`) is read as plain
//! words, so a search never fails for what was typed.

use super::place;

pub use crate::db::search::Scope;

/// The filters taken out of `input`, and the rest of it (the words to look for).
pub fn scoped(input: &str) -> (Scope, String) {
    let mut scope = Scope::default();
    let mut rest: Vec<&str> = Vec::new();
    let mut at = 0;
    while at < input.len() {
        let tail = &input[at..];
        let start = tail.len() - tail.trim_start().len();
        let token = &tail[start..];
        if token.is_empty() {
            break;
        }
        let (filter, used) = filter_at(token);
        let taken = match filter {
            Some(Filter::Folder(f)) if scope.folder.is_none() => {
                scope.folder = Some(f);
                true
            }
            Some(Filter::Tag(t)) if scope.tag.is_none() => {
                scope.tag = Some(t);
                true
            }
            _ => false,
        };
        if !taken {
            rest.push(&token[..used]);
        }
        at += start + used.max(1);
        while !input.is_char_boundary(at) {
            at += 1;
        }
    }
    (scope, rest.join(" "))
}

enum Filter {
    Folder(String),
    Tag(String),
}

/// The filter `token` starts with, if any, and how many bytes the token (or
/// filter, with its quoted value) takes.
fn filter_at(token: &str) -> (Option<Filter>, usize) {
    let word_end = token.find(char::is_whitespace).unwrap_or(token.len());
    let starts = |key: &str| {
        token
            .get(..key.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(key))
    };
    let (key_len, is_tag) = if starts("tag:") {
        (4, true)
    } else if starts("in:") {
        (3, false)
    } else {
        return (None, word_end);
    };
    let after = &token[key_len..];
    let (value, used) = match after.strip_prefix('"') {
        Some(quoted) => match quoted.find('"') {
            Some(end) => (&quoted[..end], key_len + end + 2),
            None => return (None, word_end),
        },
        None => (&token[key_len..word_end], word_end),
    };
    let filter = if is_tag {
        place::tag_name(value).ok().flatten().map(Filter::Tag)
    } else {
        place::folder_path(value)
            .ok()
            .filter(|f| !f.is_empty())
            .map(Filter::Folder)
    };
    match filter {
        Some(f) => (Some(f), used),
        None => (None, word_end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_and_folder_filters_are_taken_out_and_anything_odd_stays_words() {
        let (scope, rest) = scoped("seeds tag:Garden in:\"Projects / Garden plans\" sow");
        assert_eq!(scope.tag.as_deref(), Some("garden"));
        assert_eq!(scope.folder.as_deref(), Some("Projects/Garden plans"));
        assert_eq!(rest, "seeds sow");
        let (scope, rest) = scoped("in:.. tag: \"in:unclosed   tag:x tag:y");
        assert_eq!(scope.tag.as_deref(), Some("x"));
        assert_eq!(scope.folder, None);
        assert_eq!(rest, "in:.. tag: \"in:unclosed tag:y");
        let (scope, rest) = scoped("  日本 IN:Docs ");
        assert_eq!(
            (scope.folder.as_deref(), rest.as_str()),
            (Some("Docs"), "日本")
        );
        assert_eq!(scope.values()[1].as_deref(), Some("Docs/"));
        assert!(scoped("plain words").0.is_empty());
    }
}
