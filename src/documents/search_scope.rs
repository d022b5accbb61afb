//! What narrows a search besides its words: `tag:garden` (a tag),
//! `in:Projects/Garden` or `folder:Projects/Garden` (a folder and the folders
//! under it), `author:ana` (who made the document), `after:2026-01-31` and
//! `before:2026-02` (when it last changed, UTC: on or after the day, month or
//! year; before it), each maybe quoted (`in:"Garden plans"`). A filter quire
//! cannot use (`in:..`, `after:soon`) is read as plain words, so a search never
//! fails for what was typed.

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
            Some(Filter::Author(a)) if scope.author.is_none() => {
                scope.author = Some(a);
                true
            }
            Some(Filter::After(at)) if scope.after.is_none() => {
                scope.after = Some(at);
                true
            }
            Some(Filter::Before(at)) if scope.before.is_none() => {
                scope.before = Some(at);
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
    Author(String),
    After(i64),
    Before(i64),
}

#[derive(Clone, Copy)]
enum Key {
    Folder,
    Tag,
    Author,
    After,
    Before,
}

const KEYS: &[(&str, Key)] = &[
    ("tag:", Key::Tag),
    ("in:", Key::Folder),
    ("folder:", Key::Folder),
    ("author:", Key::Author),
    ("after:", Key::After),
    ("before:", Key::Before),
];

/// The first millisecond of `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (UTC), and of
/// the next year, month or day.
fn period(value: &str) -> Option<(i64, i64)> {
    use chrono::{Months, NaiveDate};
    let parts: Vec<&str> = value.split('-').collect();
    let number = |s: &str, len: usize| {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (start, next) = match parts.as_slice() {
        [y] => {
            let d = NaiveDate::from_ymd_opt(number(y, 4)? as i32, 1, 1)?;
            (d, d.checked_add_months(Months::new(12))?)
        }
        [y, m] => {
            let d = NaiveDate::from_ymd_opt(number(y, 4)? as i32, number(m, 2)?, 1)?;
            (d, d.checked_add_months(Months::new(1))?)
        }
        [y, m, day] => {
            let d = NaiveDate::from_ymd_opt(number(y, 4)? as i32, number(m, 2)?, number(day, 2)?)?;
            (d, d.succ_opt()?)
        }
        _ => return None,
    };
    let ms = |d: NaiveDate| {
        d.and_hms_opt(0, 0, 0)
            .map(|t| t.and_utc().timestamp_millis())
    };
    Some((ms(start)?, ms(next)?))
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
    let Some(&(name, key)) = KEYS.iter().find(|(name, _)| starts(name)) else {
        return (None, word_end);
    };
    let key_len = name.len();
    let after = &token[key_len..];
    let (value, used) = match after.strip_prefix('"') {
        Some(quoted) => match quoted.find('"') {
            Some(end) => (&quoted[..end], key_len + end + 2),
            None => return (None, word_end),
        },
        None => (&token[key_len..word_end], word_end),
    };
    let filter = match key {
        Key::Tag => place::tag_name(value).ok().flatten().map(Filter::Tag),
        Key::Folder => place::folder_path(value)
            .ok()
            .filter(|f| !f.is_empty())
            .map(Filter::Folder),
        Key::Author => {
            let name = value.trim_start_matches('@').trim();
            (!name.is_empty() && name.chars().count() <= 64)
                .then(|| Filter::Author(name.to_string()))
        }
        // On or after the period; before it.
        Key::After => period(value).map(|(start, _)| Filter::After(start)),
        Key::Before => period(value).map(|(start, _)| Filter::Before(start)),
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

    #[test]
    fn authors_and_dates_are_taken_out() {
        let (scope, rest) = scoped("plan author:@ana after:2026-01-31 before:2026-02 x");
        assert_eq!(scope.author.as_deref(), Some("ana"));
        // 2026-01-31T00:00Z and 2026-02-01T00:00Z.
        assert_eq!(scope.after, Some(1_769_817_600_000));
        assert_eq!(scope.before, Some(1_769_904_000_000));
        assert_eq!(rest, "plan x");
        assert_eq!(scoped("before:2027").0.before, Some(1_798_761_600_000));
        let (scope, rest) = scoped("after:soon before:2026-13 after:2026-02-30 folder:Docs");
        assert_eq!((scope.after, scope.before), (None, None));
        assert_eq!(scope.folder.as_deref(), Some("Docs"));
        assert_eq!(rest, "after:soon before:2026-13 after:2026-02-30");
    }
}
