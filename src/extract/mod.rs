//! The text of attached files, for search: PDF (page by page), DOCX, ODT,
//! HTML and plain text. Reading a hostile file may take any amount of memory
//! or time, or overflow the stack (a PDF nested ten thousand arrays deep), so
//! quire never does it in the server: `quire extract-text` does it in a child
//! process with a memory and CPU limit, killed after a deadline
//! (`documents::extraction`). Here only the reading, bounded where it can be
//! (text kept, bytes inflated from an archive).

mod markup;
mod office;

/// Characters of text kept per file; the rest is not searched.
pub const TEXT_AT_MOST: usize = 1 << 20;

/// What quire reads text out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Pdf,
    Docx,
    Odt,
    Html,
    Text,
}

impl Kind {
    /// The kind of a file by its content and name, if quire reads it.
    pub fn of(bytes: &[u8], name: &str) -> Option<Self> {
        let name = name.to_ascii_lowercase();
        let ends = |ext: &str| name.ends_with(ext);
        if bytes.starts_with(b"%PDF-") {
            Some(Self::Pdf)
        } else if bytes.starts_with(b"PK\x03\x04") {
            if ends(".docx") {
                Some(Self::Docx)
            } else if ends(".odt") {
                Some(Self::Odt)
            } else {
                None
            }
        } else if ends(".html") || ends(".htm") || ends(".xhtml") {
            Some(Self::Html)
        } else if std::str::from_utf8(bytes).is_ok() && !bytes.contains(&0) {
            Some(Self::Text)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Pdf => "pdf",
            Self::Docx => "docx",
            Self::Odt => "odt",
            Self::Html => "html",
            Self::Text => "text",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [Self::Pdf, Self::Docx, Self::Odt, Self::Html, Self::Text]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// The file's text, a string per page (one for kinds without pages), at most
/// `TEXT_AT_MOST` characters in all; an error says why it could not be read.
pub fn text(kind: Kind, bytes: &[u8]) -> Result<Vec<String>, String> {
    let pages = match kind {
        Kind::Pdf => pdf_extract::extract_text_from_mem_by_pages(bytes)
            .map_err(|e| format!("not a PDF quire can read: {e}"))?,
        Kind::Docx => vec![office::docx(bytes)?],
        Kind::Odt => vec![office::odt(bytes)?],
        Kind::Html => vec![markup::text_of(
            &String::from_utf8_lossy(bytes),
            markup::HTML,
        )],
        Kind::Text => vec![String::from_utf8_lossy(bytes).into_owned()],
    };
    Ok(bounded(pages))
}

/// `quire extract-text KIND`: reads a file of that kind from standard input
/// and prints its pages, parted by form feeds; the exit code (0, or 2 with
/// the reason on standard error) says how it went.
pub fn child(kind: Option<&str>) -> i32 {
    use std::io::{Read, Write};
    let Some(kind) = kind.and_then(Kind::parse) else {
        eprintln!("name a kind: pdf, docx, odt, html or text");
        return 2;
    };
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().take(1 << 30).read_to_end(&mut bytes) {
        eprintln!("the file could not be read: {e}");
        return 2;
    }
    match text(kind, &bytes) {
        Ok(pages) => {
            let pages: Vec<String> = pages.into_iter().map(|p| p.replace('\u{c}', " ")).collect();
            let mut out = std::io::stdout().lock();
            match out
                .write_all(pages.join("\u{c}").as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => 0,
                Err(_) => 2,
            }
        }
        Err(why) => {
            eprintln!("{why}");
            2
        }
    }
}

/// Pages with runs of white space made one, cut at `TEXT_AT_MOST`
/// characters in all.
fn bounded(pages: Vec<String>) -> Vec<String> {
    let mut left = TEXT_AT_MOST;
    let mut out = Vec::with_capacity(pages.len());
    for page in pages {
        let mut tidy = String::with_capacity(page.len().min(left * 4));
        for word in page.split_whitespace() {
            let n = word.chars().count() + 1;
            if n > left {
                break;
            }
            left -= n;
            if !tidy.is_empty() {
                tidy.push(' ');
            }
            tidy.push_str(word);
        }
        out.push(tidy);
        if left == 0 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_content_and_name() {
        assert_eq!(Kind::of(b"%PDF-1.4", "x"), Some(Kind::Pdf));
        assert_eq!(Kind::of(b"PK\x03\x04...", "Report.DOCX"), Some(Kind::Docx));
        assert_eq!(Kind::of(b"PK\x03\x04...", "a.zip"), None);
        assert_eq!(Kind::of(b"<p>hi</p>", "a.html"), Some(Kind::Html));
        assert_eq!(Kind::of(b"notes", "a.txt"), Some(Kind::Text));
        assert_eq!(Kind::of(b"\x89PNG\r\n\x1a\n\0", "a.png"), None);
        assert_eq!(Kind::parse("odt"), Some(Kind::Odt));
    }

    #[test]
    fn text_is_tidied_and_bounded() {
        let pages = text(Kind::Text, b"  two\n\n words ").unwrap();
        assert_eq!(pages, ["two words"]);
        let long = "word ".repeat(TEXT_AT_MOST);
        let pages = text(Kind::Text, long.as_bytes()).unwrap();
        assert!(pages[0].chars().count() <= TEXT_AT_MOST);
        assert!(text(Kind::Pdf, b"%PDF-1.4 nothing").is_err());
    }
}
