//! Import and export: folders and zips of Markdown files in, zips of Markdown with
//! front matter (and optionally every revision) out, so that an export imported
//! into an empty quire exports again byte for byte. Documents' attached files
//! travel with them (`attachments/` in an export).

pub mod cli;
pub mod comments;
pub mod export;
pub mod frontmatter;
pub mod import;
mod names;
mod source;

pub use export::{ExportReport, export};
pub use import::{ImportOptions, ImportReport, import};

use serde::{Deserialize, Serialize};

pub const MANIFEST: &str = "manifest.json";
pub const FORMAT: &str = "quire-export";

/// `manifest.json` at the top of an export: what it holds and each file's SHA-256.
#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    pub documents: u64,
    pub revisions: u64,
    pub history: bool,
    pub files: Vec<ManifestFile>,
    /// Which file of the zip each document's attached file is (absent from
    /// exports made before quire kept files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<ManifestAttachment>,
    /// The spaces of the documents, with their members where the exporter
    /// could see them, so an import makes them again (absent before spaces).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<crate::teams::portable::SpaceOut>,
    /// The groups among those members, with their people.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<crate::teams::portable::GroupOut>,
}

/// A document's file: the document's id, the name its text gives the file, and
/// where in the zip its content is (contents shared by several documents or
/// names are there once).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestAttachment {
    pub document: String,
    pub name: String,
    pub path: String,
    pub sha256: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ManifestFile {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// Milliseconds since the epoch as RFC 3339 in UTC, with milliseconds, so a time
/// survives the round trip exactly.
pub fn format_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

/// RFC 3339 (any offset, any precision), or a plain `YYYY-MM-DD` (midnight UTC).
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t.timestamp_millis());
    }
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp_millis())
}

/// `bytes` as lowercase hex digits, two a byte. On every request (the CSRF
/// token, the request id): one allocation, not one a byte.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lowercase_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn times_round_trip_to_the_millisecond() {
        let ms = 1_763_780_000_123;
        assert_eq!(parse_time(&format_time(ms)), Some(ms));
        assert_eq!(parse_time("2024-01-02"), Some(1_704_153_600_000));
        assert_eq!(
            parse_time("2024-01-02T01:00:00+01:00"),
            Some(1_704_153_600_000)
        );
        assert_eq!(parse_time("yesterday"), None);
    }
}
