//! Folder and file names as an export writes them in its paths: each part
//! escaped where a zip reader, a file system or an import would pass it over
//! or read it otherwise (`.hidden` is hidden, `x: y` starts with a drive
//! letter, `...` loses its dots on Windows), and read back exactly.

use std::borrow::Cow;

/// Characters escaped anywhere in a part: `%` (the escape itself), and what
/// Windows does not allow in a name (`:` also makes zip readers see a drive).
const ESCAPED: &[char] = &['%', ':', '<', '>', '"', '|', '?', '*'];

/// One part of a path (no `/`) as `%XX` escapes make it safe: a leading dot,
/// a trailing dot or space, and `ESCAPED` anywhere. Ordinary names are
/// unchanged.
pub fn escape(part: &str) -> Cow<'_, str> {
    let last = part.chars().count().saturating_sub(1);
    let needs = |i: usize, c: char| {
        ESCAPED.contains(&c) || (i == 0 && c == '.') || (i == last && matches!(c, '.' | ' '))
    };
    if !part.chars().enumerate().any(|(i, c)| needs(i, c)) {
        return Cow::Borrowed(part);
    }
    let mut out = String::with_capacity(part.len() + 6);
    for (i, c) in part.chars().enumerate() {
        if needs(i, c) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `escape` undone: each `%XX` that stands for an ASCII character becomes it;
/// anything else is kept as it is.
pub fn unescape(part: &str) -> String {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .filter(|b| b.is_ascii());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    // Only ASCII bytes replaced ASCII escapes, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A `/`-separated path with each part escaped.
pub fn escape_path(path: &str) -> String {
    path.split('/').map(escape).collect::<Vec<_>>().join("/")
}

/// A `/`-separated path with each part unescaped.
pub fn unescape_path(path: &str) -> String {
    path.split('/').map(unescape).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_an_import_would_pass_over_are_escaped_and_read_back_exactly() {
        for (name, escaped) in [
            ("Projects", "Projects"),
            (".hidden", "%2Ehidden"),
            ("....", "%2E..%2E"),
            ("...", "%2E.%2E"),
            ("x: y", "x%3A y"),
            ("#z", "#z"),
            ("'q'", "'q'"),
            ("100% done", "100%25 done"),
            ("a.b", "a.b"),
            ("日本語", "日本語"),
            ("what?*", "what%3F%2A"),
        ] {
            assert_eq!(escape(name), escaped, "{name}");
            assert_eq!(unescape(escaped), name, "{escaped}");
        }
        assert_eq!(escape_path(".hidden/inner"), "%2Ehidden/inner");
        assert_eq!(unescape_path("x%3A y/#z/'q'"), "x: y/#z/'q'");
        // Not an escape: left as it is.
        assert_eq!(unescape("50%zz %e9 %+1 %"), "50%zz %e9 %+1 %");
    }
}
