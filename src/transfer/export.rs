//! `quire export`: every live document the viewer may read as
//! `documents/<folder>/<title>-<id>.md` (or the name of the file it was
//! imported from; names escaped where a zip or a file system would not keep
//! them, `names::escape`) with front matter, optionally every revision as
//! `history/<id>/<rev>.md`, each document's files under `attachments/` (each
//! distinct content once), its comments as `comments/<id>.json`, and `manifest.json` with counts, SHA-256 checksums
//! and which file is whose. The same data gives the same zip, byte for byte:
//! entries are in id order (a document's files by name) and carry the
//! document's own times, never the time of the export.

use std::collections::{HashMap, HashSet};
use std::io::{Seek, Write};

use anyhow::Context;
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;

use super::frontmatter::{quoted, write};
use super::names::{escape, escape_path};
use super::{FORMAT, MANIFEST, Manifest, ManifestAttachment, ManifestFile, format_time, hex};
use crate::db::Db;
use crate::db::documents::attachments::{self, DocFile};
use crate::documents::dump::{self, DumpDoc, DumpRevision};
use crate::teams::portable::{GroupOut, SpaceOut};

pub struct ExportOptions {
    /// Whose view to export; `None` exports every document.
    pub viewer: Option<i64>,
    pub history: bool,
    pub progress: bool,
}

#[derive(Debug, Default)]
pub struct ExportReport {
    pub documents: u64,
    pub revisions: u64,
}

enum Kind {
    Document,
    Revision,
    Attachment,
    Comments,
}

struct Entry {
    name: String,
    data: Vec<u8>,
    time: i64,
    kind: Kind,
}

/// What the writer gets at once: entries to write, and which files documents
/// name (for the manifest). A file's bytes travel alone, so at most a few
/// files are in memory whatever the documents hold.
#[derive(Default)]
struct Batch {
    entries: Vec<Entry>,
    uses: Vec<ManifestAttachment>,
}

/// Where each content goes in the zip: `attachments/<file name>`, or with the
/// start of its hash in front when another content has that path already.
#[derive(Default)]
struct Placed {
    by_hash: HashMap<Vec<u8>, String>,
    taken: HashSet<String>,
}

impl Placed {
    /// The content's path, and whether it is new (still to be written).
    fn place(&mut self, name: &str, hash: &[u8]) -> (String, bool) {
        if let Some(path) = self.by_hash.get(hash) {
            return (path.clone(), false);
        }
        let base = escape(&base_name(name)).into_owned();
        let short = hex(&hash[..hash.len().min(4)]);
        let mut tries = Vec::with_capacity(3);
        tries.push(format!("attachments/{base}"));
        tries.push(format!("attachments/{short}-{base}"));
        tries.push(format!("attachments/{}-{base}", hex(hash)));
        let mut n = 2;
        let path = loop {
            if let Some(path) = tries.iter().find(|p| !self.taken.contains(*p)) {
                break path.clone();
            }
            tries = vec![format!("attachments/{}-{n}-{base}", hex(hash))];
            n += 1;
        };
        self.taken.insert(path.clone());
        self.by_hash.insert(hash.to_vec(), path.clone());
        (path, true)
    }
}

/// The last part of a file's name, usable as a zip entry's name.
fn base_name(name: &str) -> String {
    let base: String = name
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .chars()
        .map(|c| if c == '\\' || c.is_control() { '_' } else { c })
        .collect();
    match base.as_str() {
        "" | "." | ".." => "file".to_owned(),
        _ => base,
    }
}

const PAGE: i64 = 500;

/// Writes the export to `out`. One read transaction, so the zip is a consistent
/// snapshot even while quire serves.
pub async fn export<W: Write + Seek + Send + 'static>(
    db: &Db,
    out: W,
    opts: ExportOptions,
) -> anyhow::Result<ExportReport> {
    let tx = db.begin_snapshot().await.context("starting a read")?;
    let total = dump::count(&*tx, opts.viewer).await?;
    let bar = crate::progress::bar(
        total as u64,
        opts.progress,
        "exporting [{bar:40}] {pos}/{len} documents",
    )?;
    let (send, recv) = tokio::sync::mpsc::channel::<Batch>(4);
    let history = opts.history;
    let teams = crate::teams::portable::describe(&*tx, opts.viewer).await?;
    let writer = tokio::task::spawn_blocking(move || write_zip(out, recv, (history, teams)));

    let mut report = ExportReport::default();
    let mut after = String::new();
    let mut placed = Placed::default();
    let mut names = HashSet::new();
    'pages: loop {
        let docs = dump::page(&*tx, opts.viewer, &after, PAGE).await?;
        let Some(last) = docs.last() else { break };
        after = last.id.clone();
        let seqs: Vec<i64> = docs.iter().map(|d| d.seq).collect();
        let mut files_of: HashMap<i64, Vec<DocFile>> = HashMap::new();
        for f in attachments::of_documents(&*tx, &seqs).await? {
            files_of.entry(f.doc_seq).or_default().push(f);
        }
        let mut comments_of: HashMap<i64, Vec<_>> = HashMap::new();
        for c in crate::db::comments::of_documents(&*tx, &seqs).await? {
            comments_of.entry(c.doc_seq).or_default().push(c);
        }
        let mut batch = Batch::default();
        for doc in &docs {
            batch.entries.push(Entry {
                name: file_name(doc, &mut names),
                data: document_text(doc).into_bytes(),
                time: doc.updated_at,
                kind: Kind::Document,
            });
            if let Some(rows) = comments_of.remove(&doc.seq) {
                batch.entries.push(Entry {
                    name: super::comments::path_of(&doc.id),
                    data: super::comments::write(&rows)?,
                    time: rows
                        .iter()
                        .map(|c| c.created_at)
                        .max()
                        .unwrap_or(doc.updated_at),
                    kind: Kind::Comments,
                });
            }
            if opts.history {
                let revs = dump::history(&tx, doc.seq).await?;
                report.revisions += revs.len() as u64;
                batch.entries.extend(revs.iter().map(|r| Entry {
                    name: format!("history/{}/{:06}.md", doc.id, r.rev),
                    data: revision_text(r).into_bytes(),
                    time: r.created_at,
                    kind: Kind::Revision,
                }));
            }
            for f in files_of.remove(&doc.seq).unwrap_or_default() {
                let (path, new) = placed.place(&f.name, &f.hash);
                batch.uses.push(ManifestAttachment {
                    document: doc.id.clone(),
                    name: f.name,
                    path: path.clone(),
                    sha256: hex(&f.hash),
                });
                if new {
                    let data = attachments::content(&*tx, &f.hash)
                        .await?
                        .with_context(|| format!("the content of {path} has gone"))?;
                    batch.entries.push(Entry {
                        name: path,
                        data,
                        time: doc.updated_at,
                        kind: Kind::Attachment,
                    });
                    if send.send(std::mem::take(&mut batch)).await.is_err() {
                        break 'pages; // the writer failed; its error is reported below
                    }
                }
            }
        }
        report.documents += docs.len() as u64;
        bar.inc(docs.len() as u64);
        if send.send(batch).await.is_err() {
            break; // the writer failed; its error is reported below
        }
    }
    drop(send);
    tx.rollback().await.ok();
    let written = writer.await.context("the zip writer stopped")??;
    anyhow::ensure!(
        written == report.documents,
        "the zip holds {written} of {} documents",
        report.documents
    );
    bar.finish_and_clear();
    Ok(report)
}

fn zip_time(ms: i64) -> zip::DateTime {
    use chrono::{Datelike, Timelike};
    chrono::DateTime::from_timestamp_millis(ms)
        .and_then(|t| {
            zip::DateTime::from_date_and_time(
                u16::try_from(t.year()).ok()?,
                t.month() as u8,
                t.day() as u8,
                t.hour() as u8,
                t.minute() as u8,
                t.second() as u8,
            )
            .ok()
        })
        .unwrap_or_default()
}

/// The spaces and groups an export describes.
type Teams = (Vec<SpaceOut>, Vec<GroupOut>);

fn write_zip<W: Write + Seek>(
    out: W,
    mut recv: tokio::sync::mpsc::Receiver<Batch>,
    (history, (spaces, groups)): (bool, Teams),
) -> anyhow::Result<u64> {
    let mut zip = zip::ZipWriter::new(out);
    let base = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    let mut files = Vec::new();
    let mut attachments = Vec::new();
    let (mut documents, mut revisions) = (0, 0);
    while let Some(batch) = recv.blocking_recv() {
        for e in batch.entries {
            match e.kind {
                Kind::Document => documents += 1,
                Kind::Revision => revisions += 1,
                Kind::Attachment | Kind::Comments => {}
            }
            zip.start_file(e.name.as_str(), base.last_modified_time(zip_time(e.time)))?;
            zip.write_all(&e.data)?;
            files.push(ManifestFile {
                sha256: hex(&Sha256::digest(&e.data)),
                bytes: e.data.len() as u64,
                path: e.name,
            });
        }
        attachments.extend(batch.uses);
    }
    let manifest = Manifest {
        format: FORMAT.into(),
        format_version: 1,
        documents,
        revisions,
        history,
        files,
        attachments,
        spaces,
        groups,
    };
    zip.start_file(MANIFEST, base)?;
    serde_json::to_writer_pretty(&mut zip, &manifest)?;
    zip.write_all(b"\n")?;
    zip.finish()?.flush()?;
    Ok(documents)
}

/// `documents/<folder>/<the file it was imported from>` when the export has
/// no file of that name yet (the first in id order keeps it), else
/// `documents/<folder>/<title as a file name>-<id>.md`: readable in a file
/// manager, unique by the id.
fn file_name(doc: &DumpDoc, used: &mut HashSet<String>) -> String {
    let dir = match doc.folder.as_str() {
        "" => "documents".to_owned(),
        folder => format!("documents/{}", escape_path(folder)),
    };
    if let Some(name) = &doc.file_name {
        let path = format!("{dir}/{}", escape(name));
        if used.insert(path.clone()) {
            return path;
        }
    }
    let path = slug_name(doc, &dir);
    used.insert(path.clone());
    path
}

fn slug_name(doc: &DumpDoc, dir: &str) -> String {
    let mut slug = String::new();
    for c in doc.title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.chars().count() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        format!("{dir}/{}.md", doc.id)
    } else {
        format!("{dir}/{slug}-{}.md", doc.id)
    }
}

fn document_text(doc: &DumpDoc) -> String {
    let mut fields = vec![("id", doc.id.clone()), ("title", quoted(&doc.title))];
    if let Some(owner) = &doc.owner {
        fields.push(("owner", quoted(owner)));
    }
    if let Some(space) = &doc.space {
        fields.push(("space", quoted(space)));
    }
    fields.extend([
        ("visibility", doc.visibility.clone()),
        ("created", format_time(doc.created_at)),
        ("updated", format_time(doc.updated_at)),
        ("version", doc.version.to_string()),
    ]);
    place_fields(&mut fields, &doc.folder, &doc.tags);
    write(&fields, &doc.body)
}

fn revision_text(r: &DumpRevision) -> String {
    let mut fields = vec![("rev", r.rev.to_string()), ("title", quoted(&r.title))];
    if let Some(author) = &r.author {
        fields.push(("author", quoted(author)));
    }
    fields.push(("created", format_time(r.created_at)));
    place_fields(&mut fields, &r.folder, &r.tags);
    write(&fields, &r.text)
}

/// `folder` and `tags` where there are any (`tags` as stored: a JSON array,
/// which YAML reads as a list).
fn place_fields(fields: &mut Vec<(&str, String)>, folder: &str, tags: &str) {
    if !folder.is_empty() {
        fields.push(("folder", quoted(folder)));
    }
    if tags != "[]" && !tags.is_empty() {
        fields.push(("tags", tags.to_owned()));
    }
}
