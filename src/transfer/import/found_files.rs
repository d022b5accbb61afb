//! The files a document being imported shows: for a quire export, the ones
//! its manifest gives the document; otherwise each image its text names
//! (`![](photo.png)`, `![[photo.png]]`), found beside the Markdown file, at
//! the top of the import, or by its file name when exactly one file in the
//! import has it (a vault's `attachments/` folder). Kept under the name the
//! text gives it, so the page shows it. Workers only find them; the writer
//! reads each when it stores the document, one file at a time (`read`).

use std::collections::HashMap;

use super::Ctx;
use crate::documents::attachments::{image_names, plausible_name, sha256, sniff};
use crate::transfer::hex;
use crate::transfer::source::{Reader, is_text};

/// One of the import's files that a document shows, and every name the
/// document gives it.
pub(super) struct Wanted {
    pub(super) path: String,
    pub(super) names: Vec<String>,
}

/// What was found for one document.
#[derive(Default)]
pub(super) struct Found {
    pub(super) files: Vec<Wanted>,
    /// The import's files used (found, whether or not they can be kept).
    pub(super) used: Vec<String>,
    /// Files that were named but are missing, and why.
    pub(super) notes: Vec<String>,
}

/// The files of the document `id`, read from the import's file `doc` with
/// the stored text `body`.
pub(super) fn find(ctx: &Ctx, doc: &str, id: &str, body: &str) -> Found {
    let wanted: Vec<(String, Option<String>)> = if ctx.listing.export {
        ctx.listing
            .attachments
            .get(id)
            .into_iter()
            .flatten()
            .map(|(name, path)| (name.clone(), Some(path.clone())))
            .filter(|(name, _)| plausible_name(name))
            .collect()
    } else {
        image_names(body)
            .into_iter()
            .map(|name| (name.clone(), resolve(ctx, doc, &name)))
            .collect()
    };
    let mut found = Found::default();
    // Where each path is in `found.files`: another name may show it.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (name, path) in wanted {
        let Some(path) = path else {
            // `![[Another note]]` embeds a note, which quire does not do: no
            // file was meant.
            if !names_a_note(&name) {
                found.notes.push(format!(
                    "{doc} shows {name}, which is not in the import; the document was \
                     imported without it"
                ));
            }
            continue;
        };
        if let Some(&i) = seen.get(&path) {
            found.files[i].names.push(name);
            continue;
        }
        found.used.push(path.clone());
        seen.insert(path.clone(), found.files.len());
        found.files.push(Wanted {
            path,
            names: vec![name],
        });
    }
    found
}

/// A file's content as quire keeps it: (SHA-256, sniffed type, bytes), or
/// why it cannot be kept.
pub(super) type Content = (Vec<u8>, &'static str, Vec<u8>);

/// Reads the import's file `path` within the size cap of a document's file
/// and checks it against the manifest.
pub(super) fn read(ctx: &Ctx, reader: &mut Reader, path: &str) -> Result<Content, String> {
    let item = ctx
        .listing
        .files
        .get(path)
        .ok_or_else(|| "it is not in the import".to_owned())?;
    let (bytes, _) = reader
        .read_up_to(item, ctx.attachment_cap as u64)
        .map_err(|why| {
            if why.starts_with("the file is") {
                format!("{why} for a document's file (QUIRE_MAX_ATTACHMENT_BYTES)")
            } else {
                why
            }
        })?;
    let hash = sha256(&bytes);
    if let Some(expected) = ctx.listing.checksums.get(path)
        && &hex(&hash) != expected
    {
        return Err("it does not match its checksum in manifest.json (changed or damaged)".into());
    }
    Ok((hash, sniff(&bytes), bytes))
}

/// The import's file an image of the document `doc` names: beside the
/// document, else from the top of the import, else the only file of that
/// file name anywhere in it.
fn resolve(ctx: &Ctx, doc: &str, name: &str) -> Option<String> {
    let files = &ctx.listing.files;
    let dir = doc.rsplit_once('/').map_or("", |(dir, _)| dir);
    [join(dir, name), join("", name)]
        .into_iter()
        .flatten()
        .find(|path| files.contains_key(path))
        .or_else(|| {
            let base = name.rsplit('/').next()?;
            ctx.listing.by_base.get(base).cloned().flatten()
        })
}

/// `name` read from the folder `dir` (both `/`-separated, inside the
/// import), with `.` and `..` worked out; `None` when it leads out.
fn join(dir: &str, name: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Whether an image's name is that of a note (no extension, or a text one).
fn names_a_note(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    !base.contains('.') || is_text(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_the_documents_folder() {
        assert_eq!(join("a/b", "c.png").as_deref(), Some("a/b/c.png"));
        assert_eq!(join("a/b", "../../c.png").as_deref(), Some("c.png"));
        assert_eq!(join("a/b", "./x/../c.png").as_deref(), Some("a/b/c.png"));
        assert_eq!(join("a", "../../c.png"), None);
        assert_eq!(join("", "c.png").as_deref(), Some("c.png"));
        assert!(names_a_note("Another note") && names_a_note("plan.md"));
        assert!(!names_a_note("photo.png"));
    }
}
