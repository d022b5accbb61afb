//! A document's rendered page as stored: zstd-compressed in `html_z`, with
//! `html` left empty. Rows written before the page was compressed still hold it
//! in `html` (and NULL in `html_z`) until they are next rendered.

use crate::pack::{pack_bytes, unpack_bytes};

/// No page comes near this: the body is capped at 64 MiB (`max_doc_bytes` far
/// below); a frame that claims more is damaged.
const MAX_PAGE: u64 = 1 << 30;

/// A rendered page, compressed: made off the writer (rendering is CPU work
/// too), written by the statements in `store` and `import_rows`.
/// With it, the documents the page links to (`[[Title]]`), as the JSON array
/// the `links` column holds (see `links::targets`), and the other titles its
/// document answers links by (`aliases`), as the `aliases` column holds them.
#[derive(Clone, Debug, Default)]
pub struct PackedHtml(Option<Vec<u8>>, Option<String>, Option<String>);

impl PackedHtml {
    /// The page `html`, compressed; nothing for an empty page (one left to be
    /// rendered on its first view).
    pub fn pack(html: &str) -> Result<Self, crate::db::Error> {
        if html.is_empty() {
            return Ok(Self(None, None, None));
        }
        let links = super::links::targets(html);
        let links = (!links.is_empty())
            .then(|| serde_json::to_string(&links).unwrap_or_else(|_| "[]".into()));
        pack_bytes(html.as_bytes())
            .map(|bytes| Self(Some(bytes), links, None))
            .map_err(|e| crate::db::Error::Custom(format!("compressing a page: {e}")))
    }

    /// The same page, its document also answering links to `aliases` (other
    /// titles, as written; kept as link keys).
    pub fn with_aliases(mut self, aliases: &[String]) -> Self {
        let mut keys: Vec<String> = Vec::new();
        for k in aliases.iter().map(|a| super::links::key(a)) {
            if !k.is_empty() && !keys.contains(&k) {
                keys.push(k);
            }
        }
        self.2 = (!keys.is_empty()).then(|| serde_json::Value::from(keys).to_string());
        self
    }

    /// The value of `aliases`: the keys links reach the document by besides its title.
    pub fn aliases(&self) -> &str {
        self.2.as_deref().unwrap_or("[]")
    }

    /// The value of `html_z`.
    pub fn bytes(&self) -> Option<&[u8]> {
        self.0.as_deref()
    }

    /// The value of `links`: the keys of the documents the page links to.
    pub fn links(&self) -> &str {
        self.1.as_deref().unwrap_or("[]")
    }

    /// How many bytes it stores.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, Vec::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The page as it was packed.
    pub fn unpacked(&self) -> Result<String, crate::db::Error> {
        self.0.as_deref().map_or(Ok(String::new()), decompress)
    }
}

/// The page a row holds: `html_z` uncompressed, or `html` where `html_z` is NULL.
pub(super) fn unpack(packed: Option<Vec<u8>>, plain: String) -> Result<String, crate::db::Error> {
    match packed {
        Some(bytes) => decompress(&bytes),
        None => Ok(plain),
    }
}

fn decompress(bytes: &[u8]) -> Result<String, crate::db::Error> {
    let broken = |why: String| crate::db::Error::Custom(format!("a stored page {why}"));
    // Every page is compressed whole, so its frame says how long it is.
    let size = match zstd::zstd_safe::get_frame_content_size(bytes) {
        Ok(Some(size)) if size <= MAX_PAGE => size as usize,
        _ => return Err(broken("has no size or too large a one".into())),
    };
    let raw = unpack_bytes(bytes, size).map_err(|e| broken(format!("does not decompress: {e}")))?;
    String::from_utf8(raw)
        .map_err(|e| crate::db::Error::Custom(format!("a stored page is not UTF-8: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_comes_back_as_it_was_packed() {
        let html = "<p>Grüße, <em>world</em></p>\n".repeat(200);
        let packed = PackedHtml::pack(&html).unwrap();
        assert!(
            packed.len() * 10 < html.len(),
            "{} of {}",
            packed.len(),
            html.len()
        );
        let bytes = packed.bytes().map(<[u8]>::to_vec);
        assert_eq!(unpack(bytes, String::new()).unwrap(), html);
    }

    #[test]
    fn an_empty_page_is_stored_as_nothing_and_an_old_row_reads_its_html() {
        assert!(PackedHtml::pack("").unwrap().bytes().is_none());
        assert_eq!(unpack(None, "<p>old</p>".into()).unwrap(), "<p>old</p>");
        assert!(unpack(Some(b"not zstd".to_vec()), String::new()).is_err());
    }
}
