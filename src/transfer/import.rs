//! `quire import`: reads a folder or zip of Markdown files, turns each into a
//! document (title from front matter, else the first `# heading`, else the file
//! name) and stores them in batches, each with the files its images show
//! (found beside it, at the top of the import, or by name anywhere in it; in a
//! quire export by its manifest). Those files are read one at a time as their
//! document is stored, so memory does not grow with what one note shows.
//!
//! Resumable: a document and its history are stored in one transaction,
//! together or not at all, and an interrupted import keeps what it stored.
//! Transactions are short (about 100 ms of work), so users' saves are not held
//! up. Run it again and it carries on: a document's id comes from its front
//! matter (a quire export) or, for other files, from the file's name and
//! contents, and ids already in quire are skipped, never overwritten.

mod found_files;
mod load;
mod store;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use indicatif::ProgressBar;

use super::source::{Listing, Place, Reader};
use crate::db::Db;
use crate::documents::import_rows::DocRows;
use crate::documents::now_ms;
use load::load;
use store::{FileReader, store};

/// Files one worker takes at a time; the writer stores them in this order.
const CHUNK: usize = 2000;
/// What a worker hands the writer at once, at most (unless one document is
/// larger): with each worker holding one part ready and one in the making, and
/// the writer one document's file at a time, an import's memory stays bounded
/// whatever the archive holds.
const PART_BYTES: usize = 8 << 20;
/// Room for front matter on top of the body cap before a file is refused unread.
const FRONT_MATTER_ROOM: usize = 64 * 1024;

/// What the command-line import may leave for later.
#[derive(Clone, Copy, Debug, Default)]
pub struct Later {
    /// Rendering Markdown: done on each document's first view.
    pub render: bool,
    /// Indexing for search: done by the server in the background.
    pub index: bool,
}

pub struct ImportOptions {
    /// The body size cap (`QUIRE_MAX_DOC_BYTES`).
    pub cap: usize,
    /// The size cap of a document's file (`QUIRE_MAX_ATTACHMENT_BYTES`).
    pub attachment_cap: usize,
    /// Owner of documents whose front matter names nobody, or someone without an
    /// account here. Without it documents naming nobody go to the first admin
    /// (`ImportReport::unnamed_owner`), and ones naming an unknown owner are skipped.
    pub owner: Option<String>,
    /// Render Markdown now; otherwise on each document's first view.
    pub render: bool,
    /// Index for search before finishing; otherwise the server's indexer does
    /// it in the background (SQLite).
    pub index: bool,
    /// The space the documents go to. None: each to the space its front
    /// matter names (a quire export's, made again from its manifest where
    /// missing), else with `spaces_from_folders` to a space named after its top
    /// folder, else to its owner's personal space.
    pub space: Option<i64>,
    /// A vault's top folders become spaces (made where missing, open to
    /// every account to edit, as the team space is).
    pub spaces_from_folders: bool,
    /// Follow symbolic links in a folder (never out of it); otherwise skip them.
    pub follow_symlinks: bool,
    pub progress: bool,
}

#[derive(Debug, Default)]
pub struct ImportReport {
    pub imported: u64,
    pub revisions: u64,
    /// Files stored with the documents that show them (one per document).
    pub attached: u64,
    /// Comments put back under the documents (from a quire export).
    pub comments: u64,
    /// (file, why it was not imported), in file order.
    pub skipped: Vec<(String, String)>,
    /// Files that are not .md, .markdown or .txt and that no document shows.
    pub ignored: usize,
    /// What the user should know about files that were imported anyway.
    pub notes: Vec<String>,
    /// Documents whose owner has no account here, given to the `owner` option.
    pub reassigned: u64,
    /// The spaces the import made, by name.
    pub new_spaces: Vec<String>,
    /// Without an `owner` option: the admin given the documents that name no
    /// owner (None when there is no admin yet; those then have no owner).
    pub unnamed_owner: Option<String>,
    pub seconds: f64,
}

struct Users {
    by_name: HashMap<String, i64>,
    /// The `owner` option: for documents naming nobody or an unknown owner.
    default: Option<i64>,
    /// For documents naming nobody when there is no `owner` option.
    unnamed: Option<i64>,
}

struct Ctx {
    listing: Listing,
    users: Users,
    cap: usize,
    attachment_cap: usize,
    render: bool,
    now: i64,
    /// The space the documents go to.
    space: Option<i64>,
    /// Every space here by name (lower case), for the front matter's `space`.
    spaces: HashMap<String, i64>,
    spaces_from_folders: bool,
    /// The one folder a zip holds every note in, if it does: left out of
    /// their folders.
    wrapper: Option<String>,
}

struct Loaded {
    name: String,
    doc: DocRows,
    reassigned: bool,
    /// Its files, read and put as the writer stores it.
    files: Vec<found_files::Wanted>,
    /// The import's files the document's images show (found or not).
    used: Vec<String>,
    /// Its files that could not be kept, and why.
    notes: Vec<String>,
}

type Outcome = Result<Loaded, (String, String)>;

/// Files one worker read, in file order; `last` ends its chunk.
#[derive(Default)]
struct Part {
    outcomes: Vec<Outcome>,
    bytes: usize,
    last: bool,
}

pub async fn import(db: &Db, path: &Path, opts: ImportOptions) -> anyhow::Result<ImportReport> {
    let started = Instant::now();
    let owned = path.to_owned();
    let follow = opts.follow_symlinks;
    let mut listing = tokio::task::spawn_blocking(move || Listing::open(&owned, follow)).await??;
    // A vault zipped the way Finder and Explorer zip a folder: its notes are
    // placed (and their `[[Folder/Note]]` links read) from inside that folder.
    let wrapper = match (&listing.place, listing.export || opts.spaces_from_folders) {
        (Place::Zip(_), false) => one_top_folder(&listing),
        _ => None,
    };
    if let Some(top) = &wrapper {
        listing.notes.push(format!(
            "Every note was in the folder {top:?}: they went in as that folder's contents \
             (its folders at the top), as the vault's own links expect."
        ));
    }
    let users = crate::db::accounts::all_names(&db.read)
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
    // Nobody gets owner rights over a document by its having no owner: those
    // that name nobody belong to the first admin unless `owner` says otherwise.
    let first_admin: Option<(i64, String)> = match default {
        Some(_) => None,
        None => crate::db::accounts::first_admin(&db.read)
            .await
            .context("reading accounts")?,
    };
    let made = match opts.space {
        Some(_) => crate::teams::portable::Made::default(),
        None => {
            let folders = match opts.spaces_from_folders && !listing.export {
                true => top_folders(&listing),
                false => Vec::new(),
            };
            let teams = (&listing.teams.0[..], &listing.teams.1[..]);
            crate::teams::portable::recreate(db, teams, &folders)
                .await
                .context("making the import's spaces")?
        }
    };
    let total = listing.documents.len();
    let ctx = Arc::new(Ctx {
        listing,
        users: Users {
            by_name,
            default,
            unnamed: first_admin.as_ref().map(|a| a.0),
        },
        cap: opts.cap,
        attachment_cap: opts.attachment_cap,
        render: opts.render,
        now: now_ms(),
        space: opts.space,
        spaces: made.spaces,
        spaces_from_folders: opts.spaces_from_folders,
        wrapper,
    });
    let bar = progress_bar(total as u64, opts.progress)?;
    let chunks = total.div_ceil(CHUNK);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    let mut parts = Vec::new();
    let mut threads = Vec::new();
    for w in 0..workers {
        // One part waits for the writer while the next is read.
        let (tx, rx) = tokio::sync::mpsc::channel::<Part>(1);
        parts.push(rx);
        let ctx = ctx.clone();
        threads.push(std::thread::spawn(move || -> anyhow::Result<()> {
            let limit = (ctx.cap + FRONT_MATTER_ROOM) as u64;
            let mut reader = Reader::new(&ctx.listing.place, limit)?;
            for c in (w..chunks).step_by(workers) {
                let items = &ctx.listing.documents[c * CHUNK..((c + 1) * CHUNK).min(total)];
                let mut part = Part::default();
                for item in items {
                    let outcome = load(&ctx, &mut reader, item);
                    part.bytes += outcome.as_ref().map_or(0, |l| l.doc.bytes());
                    part.outcomes.push(outcome);
                    if part.bytes >= PART_BYTES
                        && tx.blocking_send(std::mem::take(&mut part)).is_err()
                    {
                        return Ok(()); // the writer stopped; its error is what gets reported
                    }
                }
                part.last = true;
                if tx.blocking_send(part).is_err() {
                    return Ok(());
                }
            }
            Ok(())
        }));
    }

    let mut report = ImportReport {
        new_spaces: made.new_spaces,
        unnamed_owner: first_admin.map(|a| a.1),
        skipped: ctx.listing.skipped.clone(),
        notes: ctx.listing.notes.clone(),
        ..ImportReport::default()
    };
    let mut used = HashSet::new();
    let mut kept = HashSet::new();
    let mut reader = FileReader::new(ctx.clone());
    let mut stored = 0;
    'chunks: for c in 0..chunks {
        loop {
            let Some(part) = parts[c % workers].recv().await else {
                break 'chunks; // the worker stopped: its error is reported below
            };
            let n = part.outcomes.len() as u64;
            let seen = (&mut used, &mut kept);
            store(db, &mut reader, part.outcomes, &mut report, seen).await?;
            bar.inc(n);
            if part.last {
                break;
            }
        }
        stored += 1;
    }
    drop(parts);
    for t in threads {
        t.join()
            .map_err(|_| anyhow::anyhow!("an import worker stopped unexpectedly"))??;
    }
    anyhow::ensure!(
        stored == chunks,
        "the import stopped before reading every file"
    );
    bar.finish_and_clear();
    let comments = store::put_comments(db, &mut reader, &kept, &mut used, &mut report).await?;
    report.comments = comments;
    report.ignored = ctx.listing.ignored
        + ctx
            .listing
            .files
            .keys()
            .filter(|f| !used.contains(*f))
            .count();
    if opts.index {
        crate::progress::index_for_search(db, opts.progress).await?;
    }
    db.after_bulk_load().await?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The folder every document to import is in, if there is one (and they are
/// not all in none).
fn one_top_folder(listing: &Listing) -> Option<String> {
    let mut tops = listing
        .documents
        .iter()
        .map(|item| item.name.split_once('/').map(|(top, _)| top));
    let first = tops.next()??;
    tops.all(|top| top == Some(first)).then(|| first.to_owned())
}

/// The top folders of the documents to import, each once, as spaces would
/// be named (a name quire cannot use as a space's is left out).
fn top_folders(listing: &Listing) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for item in &listing.documents {
        if let Some((top, _)) = item.name.split_once('/')
            && !names.iter().any(|n| n.eq_ignore_ascii_case(top.trim()))
            && crate::teams::check_name(top, "space").is_ok()
        {
            names.push(top.trim().to_owned());
        }
    }
    names
}

fn progress_bar(total: u64, visible: bool) -> anyhow::Result<ProgressBar> {
    crate::progress::bar(total, visible, "importing [{bar:40}] {pos}/{len} files")
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
