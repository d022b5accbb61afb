//! One file of an import turned into a document ready to store: its text read
//! and checked, its title, owner, dates and history worked out. Runs on the
//! import's worker threads, off the writer.

use sha2::{Digest, Sha256};

use super::{Ctx, Loaded, Outcome, found_files};
use crate::documents::import_rows::{self, NewDoc, OldRevision};
use crate::documents::{DocId, MAX_TITLE_CHARS, place, too_large_message};
use crate::transfer::frontmatter::{self, Meta};
use crate::transfer::names::{unescape, unescape_path};
use crate::transfer::source::{Item, Reader};
use crate::transfer::{hex, parse_time};

pub(super) fn load(ctx: &Ctx, reader: &mut Reader, item: &Item) -> Outcome {
    load_doc(ctx, reader, item).map_err(|why| (item.name.clone(), why))
}

/// The file's text: checked against the manifest, UTF-8, without a BOM, as
/// quire stores it (line ends as LF, NULs as U+FFFD), so the size cap is
/// checked on what would be stored.
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
        && &hex(&Sha256::digest(&bytes)) != expected
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
    Ok((crate::documents::as_stored(text).into_owned(), mtime))
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
    let (space_id, folder, placed_note) = placed(ctx, &meta, &item.name);
    let mut found = found_files::find(ctx, &item.name, id.as_str(), &body);
    found.notes.extend(placed_note);
    // A quire export's tags are the document's own; other notes' `#tags`
    // written in the text join theirs.
    let tags = if ctx.listing.export {
        tags_of(&meta)
    } else {
        crate::documents::inline_tags::with_inline(tags_of(&meta), &body)
    };
    let doc = NewDoc {
        id,
        title,
        body,
        created_at,
        updated_at,
        owner_id,
        space_id,
        visibility,
        folder,
        tags,
        history,
        // Named as the writer puts their contents, one at a time.
        files: Vec::new(),
        file_name: exported_name(&item.name, ctx.listing.export),
    };
    let doc = import_rows::prepare(doc, ctx.render)?;
    Ok(Loaded {
        name: item.name.clone(),
        doc,
        reassigned,
        files: found.files,
        used: found.used,
        notes: found.notes,
    })
}

/// The space and folder a file goes to: the import's space if it names one;
/// else the space its front matter names (a note if there is none of that
/// name here: then its owner's personal space); else, with top folders as
/// spaces, its top folder's space and the folders below it.
fn placed(ctx: &Ctx, meta: &Meta, name: &str) -> (Option<i64>, String, Option<String>) {
    if ctx.space.is_some() {
        return (ctx.space, folder_of(ctx, meta, name), None);
    }
    if let Some(space) = meta.space.as_deref().map(str::trim) {
        let id = ctx.spaces.get(&space.to_lowercase()).copied();
        let note = id.is_none().then(|| {
            format!("{name}: there is no space called {space:?} here; it went to its owner's personal space")
        });
        return (id, folder_of(ctx, meta, name), note);
    }
    if ctx.spaces_from_folders
        && meta.folder.is_none()
        && let Some((top, rest)) = name.split_once('/')
        && let Some(id) = ctx.spaces.get(&top.trim().to_lowercase())
    {
        let dir = rest.rsplit_once('/').map_or("", |(dir, _)| dir);
        return (Some(*id), place::folder_path(dir).unwrap_or_default(), None);
    }
    (None, folder_of(ctx, meta, name), None)
}

/// The folder a file goes to: its front matter's `folder` (quire's export
/// writes one), else the folders it sits in below what was imported (below
/// `documents/` in a quire export, its names unescaped). A path quire cannot
/// use as a folder puts the document at the top level.
fn folder_of(ctx: &Ctx, meta: &Meta, name: &str) -> String {
    let path = match &meta.folder {
        Some(folder) => folder.clone(),
        None => {
            let dir = name.rsplit_once('/').map_or("", |(dir, _)| dir);
            match dir.strip_prefix("documents") {
                Some(rest) if !ctx.listing.checksums.is_empty() => unescape_path(rest),
                _ => match &ctx.wrapper {
                    Some(top) => dir
                        .strip_prefix(top.as_str())
                        .map_or(dir, |rest| rest.trim_start_matches('/'))
                        .to_owned(),
                    None => dir.to_owned(),
                },
            }
        }
    };
    place::folder_path(&path).unwrap_or_default()
}

/// The file's tags as quire keeps them; one quire cannot use is left out.
fn tags_of(meta: &Meta) -> Vec<String> {
    let tags = meta.tags.as_deref().unwrap_or_default();
    let mut kept: Vec<String> = Vec::new();
    for tag in tags {
        if let Ok(Some(tag)) = place::tag_name(tag)
            && !kept.contains(&tag)
            && kept.len() < place::MAX_TAGS
        {
            kept.push(tag);
        }
    }
    kept
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
        None => Ok((ctx.users.default.or(ctx.users.unnamed), false)),
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
        folder: meta
            .folder
            .as_deref()
            .and_then(|f| place::folder_path(f).ok())
            .unwrap_or_default(),
        tags: tags_of(&meta),
    })
}

/// The name an export gives the document: the file's own, as Markdown
/// (`notes.txt` becomes `notes.md`; in a quire export, as it was before the
/// export escaped it); none for a name quire would not write.
fn exported_name(path: &str, export: bool) -> Option<String> {
    let base = path.rsplit('/').next()?;
    let base = if export {
        unescape(base)
    } else {
        base.to_owned()
    };
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) => stem,
        None => base.as_str(),
    };
    let fine = !stem.is_empty()
        && !stem.starts_with('.')
        && stem.len() <= 200
        && !stem.chars().any(|c| c.is_control() || c == '\\');
    fine.then(|| format!("{stem}.md"))
}
