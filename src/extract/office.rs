//! DOCX and ODT: a zip holding the text as XML. A zip bomb (a small entry
//! that inflates to gigabytes) is read only up to `INFLATED_AT_MOST`.

use std::io::{Cursor, Read};

use super::markup::{OFFICE, text_of};

/// Bytes of one entry inflated at most: far more than any document's text.
const INFLATED_AT_MOST: u64 = 32 << 20;
/// Entries of an archive looked through at most.
const ENTRIES_AT_MOST: usize = 10_000;

fn entry(bytes: &[u8], path: &str) -> Result<String, String> {
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("not a zip: {e}"))?;
    if zip.len() > ENTRIES_AT_MOST {
        return Err(format!("more than {ENTRIES_AT_MOST} entries"));
    }
    let file = zip.by_name(path).map_err(|_| format!("no {path} inside"))?;
    let mut xml = Vec::new();
    file.take(INFLATED_AT_MOST)
        .read_to_end(&mut xml)
        .map_err(|e| format!("{path} could not be read: {e}"))?;
    Ok(String::from_utf8_lossy(&xml).into_owned())
}

pub fn docx(bytes: &[u8]) -> Result<String, String> {
    Ok(text_of(&entry(bytes, "word/document.xml")?, OFFICE))
}

pub fn odt(bytes: &[u8]) -> Result<String, String> {
    Ok(text_of(&entry(bytes, "content.xml")?, OFFICE))
}
