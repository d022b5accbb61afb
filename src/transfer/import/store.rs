//! The import's writer: each batch of documents stored in short transactions,
//! a document with its history and its files in the same one. A document's
//! files are read there, one at a time and off the async threads, and put
//! before the document names them: at most one file's bytes are in memory.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;

use super::found_files::{self, Content, Wanted};
use super::{Ctx, FRONT_MATTER_ROOM, ImportReport, Outcome};
use crate::db::Db;
use crate::db::documents::attachments::put_content;
use crate::documents::import_rows::{self, DocRows, FileRow};
use crate::transfer::source::Reader;

/// Work one write transaction does before it lets others' saves in (a
/// document and its files are one transaction, however long they take).
const WRITE_SLICE: std::time::Duration = std::time::Duration::from_millis(100);
/// Documents inserted in one step of a transaction: as many as one multi-row
/// `INSERT` takes, while their bytes (`DocRows::bytes`, the measure the
/// import's parts use) stay within `STEP_BYTES`, and until a document that
/// shows files (whose reading can be long), so a step stays well within the
/// slice. Steps of 8 made every `INSERT` an eighth full.
const DOCS_PER_STEP: usize = import_rows::ROWS_PER_INSERT;
const STEP_BYTES: usize = 2 << 20;

/// The writer's reader of documents' files, lent to a blocking thread for
/// each read.
pub(super) struct FileReader {
    ctx: Arc<Ctx>,
    reader: Option<Reader>,
}

impl FileReader {
    pub(super) fn new(ctx: Arc<Ctx>) -> Self {
        Self { ctx, reader: None }
    }

    async fn read(&mut self, path: &str) -> Result<Content, String> {
        let ctx = self.ctx.clone();
        let reader = match self.reader.take() {
            Some(reader) => reader,
            None => Reader::new(&ctx.listing.place, (ctx.cap + FRONT_MATTER_ROOM) as u64)
                .map_err(|e| format!("the import could not be opened again: {e}"))?,
        };
        let path = path.to_owned();
        let (reader, content) = tokio::task::spawn_blocking(move || {
            let mut reader = reader;
            let content = found_files::read(&ctx, &mut reader, &path);
            (reader, content)
        })
        .await
        .map_err(|e| format!("it could not be read: {e}"))?;
        self.reader = Some(reader);
        content
    }
}

/// One batch: ids already in quire (or twice in this import) are skipped,
/// everything else is inserted, in transactions of about `WRITE_SLICE` of work
/// each, so others' saves wait at most that long for the writer.
/// `used` gathers the files documents show.
pub(super) async fn store(
    db: &Db,
    reader: &mut FileReader,
    outcomes: Vec<Outcome>,
    report: &mut ImportReport,
    (used, kept): (&mut HashSet<String>, &mut HashSet<String>),
) -> anyhow::Result<()> {
    let mut loaded = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        match o {
            Ok(mut l) => {
                used.extend(std::mem::take(&mut l.used));
                loaded.push(l);
            }
            Err(skip) => report.skipped.push(skip),
        }
    }
    let ids: Vec<&str> = loaded.iter().map(|l| l.doc.id.as_str()).collect();
    let existing = import_rows::existing_ids(&db.read, &ids).await?;
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut keep = Vec::with_capacity(loaded.len());
    for mut l in loaded {
        let id = l.doc.id.as_str().to_owned();
        if existing.contains(&id) {
            report.skipped.push((
                l.name,
                format!(
                    "document {id} is already in quire (imported before?); it was left as it is"
                ),
            ));
        } else if let Some(first) = seen.get(&id) {
            report
                .skipped
                .push((l.name, format!("it has the same id ({id}) as {first}")));
        } else {
            kept.insert(id.clone());
            seen.insert(id, l.name.clone());
            report.notes.extend(std::mem::take(&mut l.notes));
            report.reassigned += u64::from(l.reassigned);
            keep.push(l);
        }
    }
    let (mut docs, mut wanted) = (
        Vec::with_capacity(keep.len()),
        Vec::with_capacity(keep.len()),
    );
    for l in keep {
        docs.push(l.doc);
        wanted.push((l.name, l.files));
    }
    let mut done = 0;
    while done < docs.len() {
        let tx = db.begin_write().await.context("starting a write")?;
        let started = Instant::now();
        while done < docs.len() && started.elapsed() < WRITE_SLICE {
            let step = done..step_end(&docs, &wanted, done);
            for i in step.clone() {
                let (name, files) = &wanted[i];
                put_files(&tx, reader, name, files, &mut docs[i], report).await?;
            }
            import_rows::insert(&tx, &docs[step.clone()])
                .await
                .context("storing documents")?;
            done = step.end;
        }
        tx.commit().await.context("committing documents")?;
    }
    report.imported += docs.len() as u64;
    report.revisions += docs.iter().map(|d| d.revisions() as u64).sum::<u64>();
    Ok(())
}

/// Where the step that begins at `from` ends (`DOCS_PER_STEP`): at least one
/// document further.
fn step_end(docs: &[DocRows], wanted: &[(String, Vec<Wanted>)], from: usize) -> usize {
    let (mut end, mut bytes) = (from, 0);
    for (doc, (_, files)) in docs.iter().zip(wanted).skip(from).take(DOCS_PER_STEP) {
        bytes += doc.bytes();
        if end > from && bytes > STEP_BYTES {
            break;
        }
        end += 1;
        if !files.is_empty() {
            break;
        }
    }
    end
}

/// Puts back the comments of the documents this import stored (`kept`), from
/// a quire export's `comments/<id>.json`; a file that cannot be read is noted
/// and its document keeps no comments. How many comments.
pub(super) async fn put_comments(
    db: &Db,
    reader: &mut FileReader,
    kept: &HashSet<String>,
    used: &mut HashSet<String>,
    report: &mut ImportReport,
) -> anyhow::Result<u64> {
    let ctx = reader.ctx.clone();
    let mut paths: Vec<&String> = match ctx.listing.export {
        true => ctx.listing.files.keys().collect(),
        false => Vec::new(),
    };
    paths.sort();
    let mut n = 0;
    for path in paths {
        let Some(id) = crate::transfer::comments::id_of(path).filter(|id| kept.contains(*id))
        else {
            continue;
        };
        used.insert(path.clone());
        let Some(seq) = crate::db::comments::document_seq(&db.read, id).await? else {
            continue;
        };
        let rows = match reader.read(path).await {
            Ok((_, _, bytes)) => crate::transfer::comments::read(&bytes, seq),
            Err(why) => Err(why),
        };
        match rows {
            Ok(rows) => {
                let tx = db.begin_write().await.context("starting a write")?;
                n += crate::transfer::comments::restore(&*tx, rows).await? as u64;
                tx.commit().await.context("committing comments")?;
            }
            Err(why) => report.skipped.push((path.clone(), why)),
        }
    }
    Ok(n)
}

/// Reads and puts each file the document `name` shows, in the writer's
/// transaction, and lists them on the document under every name it gives
/// them; one it cannot keep is noted and left out.
async fn put_files(
    tx: &impl crate::db::Conn,
    reader: &mut FileReader,
    name: &str,
    files: &[Wanted],
    doc: &mut DocRows,
    report: &mut ImportReport,
) -> anyhow::Result<()> {
    for file in files {
        let (hash, media_type, bytes) = match reader.read(&file.path).await {
            Ok(content) => content,
            Err(why) => {
                report.notes.push(format!(
                    "{name} shows {}, which was not imported with it: {why}",
                    file.path
                ));
                continue;
            }
        };
        put_content(tx, &hash, media_type, &bytes, doc.updated_at)
            .await
            .context("storing a document's file")?;
        drop(bytes);
        report.attached += 1;
        doc.files.extend(file.names.iter().map(|n| FileRow {
            name: n.clone(),
            hash: hash.clone(),
        }));
    }
    Ok(())
}
