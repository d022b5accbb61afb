//! Moments as a page shows them: the UTC text (what shows without JavaScript),
//! the RFC 3339 form the page script reads, and `Stamp`, the two in one `<time>`.

/// A moment in milliseconds as UTC text ("2024-05-01 09:30 UTC").
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

/// A moment in milliseconds as RFC 3339, to the second.
pub fn iso_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}
