//! `quire import`: reads a folder or zip of Markdown files, turns each into a
//! document (title from front matter, else the first `# heading`, else the file
//! name) and stores them in batches.
//!
//! Resumable: each batch of files is one transaction, so a document and its
//! history are stored together or not at all, and an interrupted import keeps the
//! batches it finished. Run it again and it carries on: a document's id comes from
//! its front matter (a quire export) or, for other files, from the file's name and
//! contents, and ids already in quire are skipped, never overwritten.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use indicatif::ProgressBar;
use sha2::{Digest, Sha256};

use super::frontmatter::{self, Meta};
use super::parse_time;
use super::source::{Item, Listing, Reader};
use crate::db::Db;
use crate::documents::bulk::{self, NewDoc, OldRevision, Prepared};
use crate::documents::{DocId, MAX_TITLE_CHARS, now_ms, too_large_message};

const BATCH: usize = 2000;
/// Room for front matter on top of the body cap before a file is refused unread.
const FRONT_MATTER_ROOM: usize = 64 * 1024;

pub struct ImportOptions {
    /// The body size cap (`QUIRE_MAX_DOC_BYTES`).
    pub cap: usize,
    /// Owner of documents whose front matter names nobody, or someone without an
    /// account here. Without it such documents have no owner (every signed-in
    /// user may read and edit them) or, for an unknown owner, are skipped.
    pub owner: Option<String>,
    /// Render Markdown now; otherwise on each document's first view.
    pub render: bool,
    pub progress: bool,
}

#[derive(Debug, Default)]
pub struct ImportReport {
    pub imported: u64,
    pub revisions: u64,
    /// (file, why it was not imported), in file order.
    pub skipped: Vec<(String, String)>,
    /// Files that are not .md, .markdown or .txt.
    pub ignored: usize,
    /// Documents whose owner has no account here, given to the `owner` option.
    pub reassigned: u64,
    pub seconds: f64,
}

struct Users {
    by_name: HashMap<String, i64>,
    default: Option<i64>,
}

struct Ctx {
    listing: Listing,
    users: Users,
    cap: usize,
    render: bool,
    now: i64,
}

struct Loaded {
    name: String,
    doc: Prepared,
    reassigned: bool,
}

type Outcome = Result<Loaded, (String, String)>;

pub async fn import(db: &Db, path: &Path, opts: ImportOptions) -> anyhow::Result<ImportReport> {
    let started = Instant::now();
    let owned = path.to_owned();
    let listing = tokio::task::spawn_blocking(move || Listing::open(&owned)).await??;
    let users: Vec<(i64, String)> = sqlx::query_as("SELECT id, username FROM users")
        .fetch_all(&db.read)
        .await
        .context("reading accounts")?;
    let by_name: HashMap<String, i64> = users
        .into_iter()
        .map(|(id, name)| (name.to_lowercase(), id))
        .collect();
    let default = match &opts.owner {
        Some(name) => Some(*by_name.get(&name.to_lowercase()).with_context(|| {
            format!("there is no account called {name:?}; create it with `quire user add {name}`")
        })?),
        None => None,
    };
    let total = listing.documents.len();
    let ctx = Arc::new(Ctx {
        listing,
        users: Users { by_name, default },
        cap: opts.cap,
        render: opts.render,
        now: now_ms(),
    });
    let bar = progress_bar(total as u64, opts.progress)?;
    let batches = total.div_ceil(BATCH);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    let (tx, mut rx) = tokio::sync::mpsc::channel::<(usize, Vec<Outcome>)>(workers * 2);
    let mut threads = Vec::new();
    for w in 0..workers {
        let (ctx, tx) = (ctx.clone(), tx.clone());
        threads.push(std::thread::spawn(move || -> anyhow::Result<()> {
            let limit = (ctx.cap + FRONT_MATTER_ROOM) as u64;
            let mut reader = Reader::new(&ctx.listing.place, limit)?;
            for b in (w..batches).step_by(workers) {
                let items = &ctx.listing.documents[b * BATCH..((b + 1) * BATCH).min(total)];
                let out = items.iter().map(|i| load(&ctx, &mut reader, i)).collect();
                if tx.blocking_send((b, out)).is_err() {
                    break; // the writer stopped; its error is what gets reported
                }
            }
            Ok(())
        }));
    }
    drop(tx);

    let mut report = ImportReport {
        ignored: ctx.listing.ignored,
        ..ImportReport::default()
    };
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    while let Some((b, outcomes)) = rx.recv().await {
        waiting.insert(b, outcomes);
        while let Some(outcomes) = waiting.remove(&next) {
            let n = outcomes.len() as u64;
            store(db, outcomes, &mut report).await?;
            bar.inc(n);
            next += 1;
        }
    }
    for t in threads {
        t.join()
            .map_err(|_| anyhow::anyhow!("an import worker stopped unexpectedly"))??;
    }
    anyhow::ensure!(
        next == batches,
        "the import stopped before reading every file"
    );
    bar.finish_and_clear();
    db.after_bulk_load().await?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

fn progress_bar(total: u64, visible: bool) -> anyhow::Result<ProgressBar> {
    crate::progress::bar(total, visible, "importing [{bar:40}] {pos}/{len} files")
}

/// One batch, one transaction: ids already in quire (or twice in this import) are
/// skipped, everything else is inserted.
async fn store(db: &Db, outcomes: Vec<Outcome>, report: &mut ImportReport) -> anyhow::Result<()> {
    let mut loaded = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        match o {
            Ok(l) => loaded.push(l),
            Err(skip) => report.skipped.push(skip),
        }
    }
    let mut tx = db.begin_write().await.context("starting a write")?;
    let ids: Vec<&str> = loaded.iter().map(|l| l.doc.id.as_str()).collect();
    let existing = bulk::existing_ids(&mut tx, &ids).await?;
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut keep = Vec::with_capacity(loaded.len());
    for l in loaded {
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
            seen.insert(id, l.name.clone());
            keep.push(l);
        }
    }
    let docs: Vec<Prepared> = keep
        .into_iter()
        .map(|l| {
            report.reassigned += u64::from(l.reassigned);
            l.doc
        })
        .collect();
    bulk::insert(&mut tx, &docs)
        .await
        .context("storing documents")?;
    tx.commit().await.context("committing a batch")?;
    report.imported += docs.len() as u64;
    report.revisions += docs.iter().map(|d| d.revisions() as u64).sum::<u64>();
    Ok(())
}

fn load(ctx: &Ctx, reader: &mut Reader, item: &Item) -> Outcome {
    load_doc(ctx, reader, item).map_err(|why| (item.name.clone(), why))
}

/// The file's text: checked against the manifest, UTF-8, without a BOM, with
/// line ends as the editor stores them.
fn text_of(ctx: &Ctx, reader: &mut Reader, item: &Item) -> Result<(String, Option<i64>), String> {
    let (bytes, mtime) = reader.read(item).map_err(|why| {
        if why.starts_with("the file is") {
            format!(
                "{why} (the document size cap is {} bytes)",
                crate::documents::group(ctx.cap)
            )
        } else {
            why
        }
    })?;
    if let Some(expected) = ctx.listing.checksums.get(&item.name)
        && &super::hex(&Sha256::digest(&bytes)) != expected
    {
        return Err("it does not match its checksum in manifest.json (changed or damaged)".into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (invalid bytes at offset {}); re-save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok((text.replace("\r\n", "\n"), mtime))
}

fn first_heading(body: &str) -> Option<&str> {
    body.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|h| h.trim().trim_end_matches('#').trim())
        .filter(|h| !h.is_empty())
}

fn clip_title(title: &str) -> String {
    title
        .trim()
        .chars()
        .take(MAX_TITLE_CHARS)
        .collect::<String>()
        .trim()
        .to_owned()
}

fn file_stem(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    stem.replace(['_'], " ")
}

fn load_doc(ctx: &Ctx, reader: &mut Reader, item: &Item) -> Result<Loaded, String> {
    let (text, mtime) = text_of(ctx, reader, item)?;
    let (meta, rest) = frontmatter::split(&text);
    let body = frontmatter::stored_body(&meta, rest);
    if body.len() > ctx.cap {
        return Err(too_large_message(body.len(), ctx.cap));
    }
    let title = [
        meta.title.as_deref(),
        first_heading(&body),
        Some(&file_stem(&item.name)),
    ]
    .into_iter()
    .flatten()
    .map(clip_title)
    .find(|t| !t.is_empty())
    .unwrap_or_else(|| "Untitled".into());
    let id = meta
        .id
        .as_deref()
        .and_then(DocId::parse)
        .unwrap_or_else(|| {
            let digest = Sha256::new()
                .chain_update(b"quire import\0")
                .chain_update(item.name.as_bytes())
                .chain_update(b"\0")
                .chain_update(text.as_bytes())
                .finalize();
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(&digest[..16]);
            DocId::from_digest(bytes)
        });
    let (owner_id, reassigned) = owner(ctx, &meta)?;
    let time = |v: &Option<String>, key: &str| match v {
        Some(v) => parse_time(v).ok_or_else(|| format!("its {key} time {v:?} is not a date")),
        None => Ok(mtime.unwrap_or(ctx.now)),
    };
    let created_at = time(&meta.created, "created")?;
    let updated_at = time(&meta.updated, "updated")?;
    let visibility = match meta.visibility.as_deref() {
        Some(v @ ("private" | "read" | "edit")) => v.to_owned(),
        _ => "private".to_owned(),
    };
    let history = match ctx.listing.history.get(id.as_str()) {
        Some(items) => items
            .iter()
            .map(|i| revision(ctx, reader, i))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let doc = NewDoc {
        id,
        title,
        body,
        created_at,
        updated_at,
        owner_id,
        visibility,
        history,
    };
    let doc = bulk::prepare(doc, ctx.render)?;
    Ok(Loaded {
        name: item.name.clone(),
        doc,
        reassigned,
    })
}

fn owner(ctx: &Ctx, meta: &Meta) -> Result<(Option<i64>, bool), String> {
    match meta.owner.as_deref() {
        Some(name) => match ctx.users.by_name.get(&name.to_lowercase()) {
            Some(id) => Ok((Some(*id), false)),
            None => match ctx.users.default {
                Some(id) => Ok((Some(id), true)),
                None => Err(format!(
                    "its owner {name:?} has no account here; create it (`quire user add {name}`) \
                     or pass --owner USER, then import again"
                )),
            },
        },
        None => Ok((ctx.users.default, false)),
    }
}

fn revision(ctx: &Ctx, reader: &mut Reader, item: &Item) -> Result<OldRevision, String> {
    let fail = |why: String| format!("its revision file {} is not usable: {why}", item.name);
    let (text, _) = text_of(ctx, reader, item).map_err(fail)?;
    let (meta, rest) = frontmatter::split(&text);
    let rev = meta
        .rev
        .as_deref()
        .and_then(|r| r.parse().ok())
        .ok_or_else(|| fail("it has no rev number".into()))?;
    let created_at = meta
        .created
        .as_deref()
        .and_then(parse_time)
        .ok_or_else(|| fail("it has no created time".into()))?;
    Ok(OldRevision {
        rev,
        title: meta.title.clone().unwrap_or_default(),
        author: meta.author.clone(),
        created_at,
        text: frontmatter::stored_body(&meta, rest),
    })
}

/// Files that were skipped, for messages: at most `n`, then how many more.
pub fn skipped_lines(report: &ImportReport, n: usize) -> Vec<String> {
    let mut lines: Vec<String> = report
        .skipped
        .iter()
        .take(n)
        .map(|(file, why)| format!("skipped {file}: {why}"))
        .collect();
    if report.skipped.len() > n {
        lines.push(format!("... and {} more", report.skipped.len() - n));
    }
    lines
}
