//! Where an import reads from: a folder (walked recursively) or a zip file. Lists
//! the text files first, so the progress bar knows the total, and reads each one
//! with the size cap enforced before its bytes are kept. Other files are listed
//! too: documents' images may name them.

mod folder;
mod zipped;

use crate::teams::portable::{GroupOut, SpaceOut};
use folder::{Walk, inside};

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::{MANIFEST, Manifest};

const EXTENSIONS: &[&str] = &["md", "markdown", "txt"];

#[derive(Debug, Clone)]
pub enum Place {
    Folder(PathBuf),
    Zip(PathBuf),
}

/// One file to read: where it is and its name inside the import (`/`-separated).
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    /// Zip entry index; unused for folders.
    pub index: usize,
    /// Where the local header of a zip entry starts that another entry of the
    /// same name hides from the zip's index.
    pub hidden: Option<u64>,
}

pub struct Listing {
    pub place: Place,
    pub documents: Vec<Item>,
    /// Whether this is a quire export (it has quire's manifest).
    pub export: bool,
    /// A quire export's revision files, by document id, oldest first.
    pub history: HashMap<String, Vec<Item>>,
    /// Checksums from a quire export's manifest, by file name.
    pub checksums: HashMap<String, String>,
    /// Files that are not documents (images, PDFs, ...), by name: a document's
    /// text may show them.
    pub files: HashMap<String, Item>,
    /// Each file name (without its folders) that exactly one of `files` has,
    /// with that file's name; `None` where several have it.
    pub by_base: HashMap<String, Option<String>>,
    /// A quire export's attached files, by document id: (the name the
    /// document gives the file, the file's name in the export).
    pub attachments: HashMap<String, Vec<(String, String)>>,
    /// A quire export's spaces and groups, to make again where missing.
    pub teams: (Vec<SpaceOut>, Vec<GroupOut>),
    /// Hidden files that are not text (tools' data).
    pub ignored: usize,
    /// Files left out while listing (hidden notes, symbolic links, names that
    /// are not UTF-8 or lead out of a zip), with why.
    pub skipped: Vec<(String, String)>,
    /// What the user should know about files that were imported anyway.
    pub notes: Vec<String>,
}

const HIDDEN: &str = "it is hidden (a folder or file in its path starts with a dot), and \
                      quire leaves hidden files out: tools keep their data there (.obsidian, \
                      .git, .trash)";
const NOT_UTF8: &str = "its name could not be read as text; rename it and import again";
const LEADS_OUT: &str = "its name leads out of the zip (an absolute path, or `..` above its \
                         top) or holds a NUL; quire never imports such a name";

fn is_hidden(name: &str) -> bool {
    name.split('/').any(|p| p.starts_with('.'))
}

/// A zip entry's name as a path inside the import (`/`-separated, without
/// `.` and empty parts, `..` worked out), or `None` when it is absolute or
/// leads out. quire never writes an entry to disk under its name, so a colon
/// or a leading dot is just part of a name (a zip library's own check reads
/// `x: y` as a drive letter).
fn entry_name(raw: &str) -> Option<String> {
    let raw = raw.replace('\\', "/");
    if raw.starts_with('/') || raw.contains('\0') {
        return None;
    }
    let mut parts = Vec::new();
    for part in raw.split('/') {
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

pub fn is_text(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// `history/<id>/<rev>.md` in a quire export.
fn history_of(name: &str) -> Option<(&str, u64)> {
    let rest = name.strip_prefix("history/")?;
    let (id, file) = rest.split_once('/')?;
    let rev = file.strip_suffix(".md")?.parse().ok()?;
    Some((id, rev))
}

impl Listing {
    /// `follow_symlinks`: walk into linked files and folders that are inside
    /// the folder; otherwise each link is skipped and reported.
    pub fn open(path: &Path, follow_symlinks: bool) -> anyhow::Result<Self> {
        let meta =
            std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
        let mut skipped = Vec::new();
        let mut notes = Vec::new();
        let mut hidden = Vec::new();
        // Every file but the manifest, with its zip entry index (0 in a folder).
        let (place, found, manifest) = if meta.is_dir() {
            let real_root = path
                .canonicalize()
                .with_context(|| format!("reading {}", path.display()))?;
            let manifest = std::fs::read(path.join(MANIFEST)).ok();
            let mut walk = Walk {
                root: path.to_owned(),
                seen: HashSet::from([real_root.clone()]),
                real_root: real_root.clone(),
                follow: follow_symlinks,
                export: manifest.is_some(),
                found: Vec::new(),
                skipped: Vec::new(),
            };
            walk.folder(path)?;
            skipped = walk.skipped;
            let found = walk.found.into_iter().map(|n| (n, 0)).collect();
            (Place::Folder(real_root), found, manifest)
        } else {
            let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
            let mut zip = zip::ZipArchive::new(file)
                .with_context(|| format!("{} is not a zip file quire can read", path.display()))?;
            let mut found = Vec::new();
            let mut manifest = None;
            for i in 0..zip.len() {
                let entry = zip.by_index(i)?;
                if entry.is_dir() {
                    continue;
                }
                let raw = String::from_utf8_lossy(entry.name_raw()).into_owned();
                let Ok(name) = entry.name() else {
                    skipped.push((raw, NOT_UTF8.into()));
                    continue;
                };
                let Some(name) = entry_name(&name) else {
                    skipped.push((raw, LEADS_OUT.into()));
                    continue;
                };
                if name == MANIFEST {
                    let mut bytes = Vec::new();
                    entry.take(64 << 20).read_to_end(&mut bytes)?;
                    manifest = Some(bytes);
                } else {
                    found.push((name, i));
                }
            }
            if zip.has_duplicate_names() {
                hidden = zipped::hidden_entries(path)
                    .with_context(|| format!("reading {} entry by entry", path.display()))?;
                notes.extend(zipped::copies_noted(&hidden));
            }
            (Place::Zip(path.to_owned()), found, manifest)
        };
        let manifest: Option<Manifest> = manifest.and_then(|m| serde_json::from_slice(&m).ok());
        let manifest = manifest.filter(|m| m.format == super::FORMAT);
        let export = manifest.is_some();
        let checksums: HashMap<String, String> = manifest
            .iter()
            .flat_map(|m| &m.files)
            .map(|f| (f.path.clone(), f.sha256.clone()))
            .collect();
        // A quire export's own files are read whatever their names; elsewhere
        // hidden files are tools' data.
        let usable = |name: &str| !is_hidden(name) || checksums.contains_key(name);
        let mut ignored = 0;
        let mut items = Vec::new();
        let mut files: HashMap<String, Item> = HashMap::new();
        for (name, index) in found {
            let item = Item {
                name,
                index,
                hidden: None,
            };
            if !usable(&item.name) {
                if is_text(&item.name) {
                    skipped.push((item.name, HIDDEN.into()));
                } else {
                    ignored += 1;
                }
            } else if is_text(&item.name) {
                items.push(item);
            } else {
                files.insert(item.name.clone(), item);
            }
        }
        items.extend(
            hidden
                .into_iter()
                .filter(|(name, _)| is_text(name) && usable(name))
                .map(|(name, at)| Item {
                    name,
                    index: usize::MAX,
                    hidden: Some(at),
                }),
        );
        let mut attachments: HashMap<String, Vec<(String, String)>> = HashMap::new();
        for a in manifest.iter().flat_map(|m| &m.attachments) {
            attachments
                .entry(a.document.clone())
                .or_default()
                .push((a.name.clone(), a.path.clone()));
        }
        let teams = manifest
            .as_ref()
            .map(|m| (m.spaces.clone(), m.groups.clone()))
            .unwrap_or_default();
        let attached: HashSet<&str> = attachments
            .values()
            .flatten()
            .map(|(_, path)| path.as_str())
            .collect();
        let mut documents = Vec::new();
        let mut history: HashMap<String, Vec<(u64, Item)>> = HashMap::new();
        for item in items {
            if attached.contains(item.name.as_str()) {
                // An attached text file, not a document.
                files.insert(item.name.clone(), item);
                continue;
            }
            match history_of(&item.name).filter(|_| export) {
                Some((id, rev)) => history.entry(id.to_owned()).or_default().push((rev, item)),
                None => documents.push(item),
            }
        }
        let mut by_base: HashMap<String, Option<String>> = HashMap::new();
        for name in files.keys() {
            let base = name.rsplit('/').next().unwrap_or(name);
            by_base
                .entry(base.to_owned())
                .and_modify(|only| *only = None)
                .or_insert_with(|| Some(name.clone()));
        }
        let history = history
            .into_iter()
            .map(|(id, mut revs)| {
                revs.sort_by_key(|r| r.0);
                (id, revs.into_iter().map(|r| r.1).collect())
            })
            .collect();
        Ok(Self {
            place,
            documents,
            export,
            history,
            checksums,
            files,
            by_base,
            attachments,
            teams,
            ignored,
            skipped,
            notes,
        })
    }
}

/// Reads files of one listing; each worker thread has its own.
pub struct Reader {
    zip: Option<zip::ZipArchive<File>>,
    /// The folder, or the zip file.
    root: PathBuf,
    limit: u64,
}

impl Reader {
    /// `limit`: files larger than this are refused unread.
    pub fn new(place: &Place, limit: u64) -> anyhow::Result<Self> {
        Ok(match place {
            Place::Folder(root) => Self {
                zip: None,
                root: root.clone(),
                limit,
            },
            Place::Zip(path) => Self {
                zip: Some(zip::ZipArchive::new(File::open(path)?)?),
                root: path.clone(),
                limit,
            },
        })
    }

    /// The file's bytes, or why it cannot be imported. Also its modification time
    /// (ms) where the file system knows it.
    pub fn read(&mut self, item: &Item) -> Result<(Vec<u8>, Option<i64>), String> {
        self.read_up_to(item, self.limit)
    }

    /// As `read`, refusing files larger than `limit` (not the reader's own).
    pub fn read_up_to(
        &mut self,
        item: &Item,
        limit: u64,
    ) -> Result<(Vec<u8>, Option<i64>), String> {
        let too_big = |size: u64| {
            format!(
                "the file is {} bytes; the largest quire imports is {} bytes",
                crate::documents::group(size as usize),
                crate::documents::group(limit as usize)
            )
        };
        if let Some(at) = item.hidden {
            let bytes = zipped::read_hidden(&self.root, at, limit).map_err(|e| match e {
                zipped::Hidden::TooBig(n) => too_big(n),
                zipped::Hidden::Unreadable(e) => format!("it could not be read from the zip: {e}"),
            })?;
            return Ok((bytes, None));
        }
        match &mut self.zip {
            None => {
                // Listed files may have been swapped for links since: still never
                // read from outside the folder.
                let path = inside(&self.root, &self.root.join(&item.name))?;
                let unreadable = |e: std::io::Error| format!("it could not be read: {e}");
                let file = File::open(&path).map_err(unreadable)?;
                let meta = file.metadata().map_err(unreadable)?;
                if meta.len() > limit {
                    return Err(too_big(meta.len()));
                }
                let mut bytes = Vec::with_capacity(meta.len() as usize);
                file.take(limit + 1)
                    .read_to_end(&mut bytes)
                    .map_err(unreadable)?;
                if bytes.len() as u64 > limit {
                    return Err(too_big(bytes.len() as u64));
                }
                let mtime = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_millis() as i64);
                Ok((bytes, mtime))
            }
            Some(zip) => {
                let unreadable =
                    |e: zip::result::ZipError| format!("it could not be read from the zip: {e}");
                let entry = zip.by_index(item.index).map_err(unreadable)?;
                if entry.size() > limit {
                    return Err(too_big(entry.size()));
                }
                // The declared size may lie; never read more than the limit.
                let mut bytes = Vec::with_capacity(entry.size() as usize);
                entry
                    .take(limit + 1)
                    .read_to_end(&mut bytes)
                    .map_err(|e| format!("it could not be read from the zip: {e}"))?;
                if bytes.len() as u64 > limit {
                    return Err(too_big(bytes.len() as u64));
                }
                Ok((bytes, None))
            }
        }
    }
}
