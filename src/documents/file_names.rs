//! What quire decides about a file from its bytes and its name alone: the
//! type it is served with (sniffed), an uploaded file's tidied name, the names
//! a text's images give the document's files, and where a file is served.

use sha2::{Digest, Sha256};

/// Longest name kept for an uploaded file (its extension included).
const MAX_UPLOADED_NAME: usize = 80;
/// Longest name a document's text may give a file (an imported vault's paths).
pub const MAX_NAME: usize = 400;

/// The content type a file is served with, from its first bytes: an image, a PDF
/// or plain UTF-8 text. Empty for anything else (and for SVG, HTML and XML,
/// which could run script): those are served as downloads.
pub fn sniff(bytes: &[u8]) -> &'static str {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    if starts(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if starts(b"\xff\xd8\xff") {
        "image/jpeg"
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        "image/gif"
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        "image/webp"
    } else if bytes.len() >= 12
        && &bytes[4..8] == b"ftyp"
        && matches!(&bytes[8..12], b"avif" | b"avis")
    {
        "image/avif"
    } else if starts(b"%PDF-") {
        "application/pdf"
    } else if is_plain_text(bytes) {
        "text/plain; charset=utf-8"
    } else {
        ""
    }
}

/// UTF-8 without NULs or control characters other than whitespace, and not
/// markup a browser might treat as a page (`<` first).
fn is_plain_text(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let text = text.trim_start_matches('\u{feff}');
    !text.trim_start().starts_with('<')
        && !text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\u{c}'))
}

pub fn is_image(media_type: &str) -> bool {
    media_type.starts_with("image/")
}

/// An uploaded file's name as quire keeps it: the last part of what the
/// browser sent, letters, digits, `.`, `-` and `_` only (spaces become `-`),
/// so the Markdown naming it needs no escaping.
pub fn clean_name(given: &str) -> String {
    let base = given.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut name = String::new();
    for c in base.chars() {
        if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
            name.push(c);
        } else if c.is_whitespace() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext))
            if (1..=10).contains(&ext.len()) && ext.chars().all(|c| c.is_alphanumeric()) =>
        {
            (stem, Some(ext))
        }
        _ => (name.as_str(), None),
    };
    let stem = stem.trim_start_matches(['.', '-']);
    let room = MAX_UPLOADED_NAME - ext.map_or(0, |e| e.len() + 1);
    let stem: String = stem.chars().take(room).collect();
    let stem = if stem.is_empty() { "file" } else { &stem };
    match ext {
        Some(ext) => format!("{stem}.{ext}"),
        None => stem.to_owned(),
    }
}

/// The `n`-th name tried for an upload called `name`: itself, then
/// `stem-2.ext`, `stem-3.ext`, …
pub fn numbered(name: &str, n: u32) -> String {
    if n < 2 {
        return name.to_owned();
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}-{n}.{ext}"),
        None => format!("{name}-{n}"),
    }
}

/// The name a page's image source gives a file of the document: a path
/// without a scheme, a leading `/`, `#` or `?`, percent-decoded. `None` for
/// anything else (an address on the web, a data URL, a link into the page).
pub fn local_name(src: &str) -> Option<String> {
    let src = src.trim();
    if src.is_empty() || src.starts_with(['/', '#', '?', '\\']) {
        return None;
    }
    let scheme = src.split_once(':').is_some_and(|(s, _)| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    });
    if scheme {
        return None;
    }
    let name = percent_encoding::percent_decode_str(src)
        .decode_utf8()
        .ok()?;
    let name = name.strip_prefix("./").unwrap_or(&name);
    (!name.is_empty() && name.chars().count() <= MAX_NAME).then(|| name.to_owned())
}

/// The names of the document's files a text shows as images, as the renderer
/// reads them (`local_name` of each image's source), each once, in order.
pub fn image_names(text: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut names: Vec<String> = Vec::new();
    for e in Parser::new_ext(text, super::render::OPTIONS) {
        if let Event::Start(Tag::Image { dest_url, .. }) = e
            && let Some(name) = local_name(&dest_url)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    names
}

/// Where a document's file is served; each part of the name percent-encoded.
/// A name with a `.` or `..` part (`../attachments/a.png`, as a vault's
/// relative links have it) is one part with its `/` encoded too, which
/// browsers leave as it is instead of resolving the dots away.
pub fn url(doc_id: &str, name: &str) -> String {
    const PART: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'.')
        .remove(b'-')
        .remove(b'_')
        .remove(b'~');
    if name.split('/').any(|p| p == "." || p == "..") {
        let whole = percent_encoding::utf8_percent_encode(name, PART).to_string();
        // A name of dots alone would still be resolved away: its dots too.
        let whole = match whole.trim_matches('.').is_empty() {
            true => whole.replace('.', "%2E"),
            false => whole,
        };
        return format!("/d/{doc_id}/files/{whole}");
    }
    let parts: Vec<String> = name
        .split('/')
        .map(|p| percent_encoding::utf8_percent_encode(p, PART).to_string())
        .collect();
    format!("/d/{doc_id}/files/{}", parts.join("/"))
}

/// The Markdown that shows (an image) or links to (anything else) a file.
pub fn markdown(doc_id: &str, name: &str, media_type: &str) -> String {
    if is_image(media_type) {
        // A name with spaces or brackets (an imported one) goes in `<...>`.
        let plain = !name.contains([' ', '(', ')', '<', '>', '[', ']', '\\']);
        match plain {
            true => format!("![{name}]({name})"),
            false => {
                let alt = name.replace(['[', ']', '\\'], "");
                let dest = name.replace('<', "%3C").replace('>', "%3E");
                format!("![{alt}](<{dest}>)")
            }
        }
    } else {
        format!("[{name}]({})", url(doc_id, name))
    }
}

pub fn sha256(bytes: &[u8]) -> Vec<u8> {
    Sha256::digest(bytes).to_vec()
}

/// Whether a name could be a file's at all (not empty, no control
/// characters, not longer than `MAX_NAME`): anything else is not found.
pub fn plausible_name(name: &str) -> bool {
    !name.is_empty() && name.chars().count() <= MAX_NAME && !name.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_sniffed_never_taken_from_the_name() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n rest"), "image/png");
        assert_eq!(sniff(b"\xff\xd8\xff\xe0"), "image/jpeg");
        assert_eq!(sniff(b"GIF89a.."), "image/gif");
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), "image/webp");
        assert_eq!(sniff(b"\0\0\0\x1cftypavif"), "image/avif");
        assert_eq!(sniff(b"%PDF-1.7"), "application/pdf");
        assert_eq!(
            sniff("plain words, ünïcode\n".as_bytes()),
            "text/plain; charset=utf-8"
        );
        assert_eq!(sniff(b"<svg onload=alert(1)>"), "");
        assert_eq!(sniff(b"  <html><script>"), "");
        assert_eq!(sniff(b"MZ\x90\0\x03"), "");
        assert_eq!(sniff(b"text\0with a nul"), "");
    }

    #[test]
    fn uploaded_names_are_tidied() {
        assert_eq!(clean_name("image.png"), "image.png");
        assert_eq!(
            clean_name("C:\\Users\\me\\My Photo (1).JPG"),
            "My-Photo-1.JPG"
        );
        assert_eq!(clean_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_name(".htaccess"), "file.htaccess");
        assert_eq!(clean_name("<script>.png"), "script.png");
        assert_eq!(clean_name(""), "file");
        assert_eq!(clean_name("???.pdf"), "file.pdf");
        assert_eq!(clean_name(&"a".repeat(300)).len(), MAX_UPLOADED_NAME);
        assert_eq!(numbered("photo.png", 3), "photo-3.png");
        assert_eq!(numbered("notes", 2), "notes-2");
    }

    #[test]
    fn images_are_shown_and_other_files_linked() {
        assert_eq!(markdown("abc", "a.png", "image/png"), "![a.png](a.png)");
        assert_eq!(
            markdown("abc", "r.pdf", "application/pdf"),
            "[r.pdf](/d/abc/files/r.pdf)"
        );
        assert_eq!(
            url("abc", "sub dir/ä b.png"),
            "/d/abc/files/sub%20dir/%C3%A4%20b.png"
        );
        assert_eq!(url("abc", "../att/a.png"), "/d/abc/files/..%2Fatt%2Fa.png");
        assert_eq!(url("abc", ".."), "/d/abc/files/%2E%2E");
        assert_eq!(
            local_name("my%20photo.png").as_deref(),
            Some("my photo.png")
        );
        assert_eq!(
            local_name("./attachments/a.png").as_deref(),
            Some("attachments/a.png")
        );
        assert_eq!(
            image_names(
                "![](a.png) ![[b%20c.png]] ![x](./a.png) [not](d.png)\n\
                 ![](https://x/e.png) `![](f.png)` ![](attachments/g.png)"
            ),
            ["a.png", "b c.png", "attachments/g.png"]
        );
        for elsewhere in [
            "https://example.org/a.png",
            "/a.png",
            "//x/a.png",
            "data:image/png;base64,AA",
            "#top",
            "",
        ] {
            assert_eq!(local_name(elsewhere), None, "{elsewhere}");
        }
    }
}
