//! Zip entries that share a name: the zip's index keeps only the last of them,
//! so the others are found and read from their local headers.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek};
use std::path::Path;

/// Zip entries hidden by a later entry of the same name (the zip's index keeps
/// one entry per name), found from the local headers in archive order: each
/// with where its local header starts, so it is read when its turn comes and a
/// zip of many copies is never held in memory.
pub(super) fn hidden_entries(path: &Path) -> anyhow::Result<Vec<(String, u64)>> {
    let names = |keep: &mut dyn FnMut(String, u64) -> anyhow::Result<()>| {
        let mut file = std::io::BufReader::new(File::open(path)?);
        loop {
            let at = file.stream_position()?;
            let Some(entry) = zip::read::read_zipfile_from_stream(&mut file)? else {
                break;
            };
            if entry.is_dir() {
                continue;
            }
            if let Some(name) = entry.name().ok().and_then(|n| super::entry_name(&n)) {
                keep(name, at)?;
            }
        }
        anyhow::Ok(())
    };
    let mut counts: HashMap<String, usize> = HashMap::new();
    names(&mut |name, _| {
        *counts.entry(name).or_default() += 1;
        Ok(())
    })?;
    let mut hidden = Vec::new();
    names(&mut |name, at| {
        if let Some(left) = counts.get_mut(&name).filter(|n| **n > 1) {
            *left -= 1;
            hidden.push((name, at));
        }
        Ok(())
    })?;
    Ok(hidden)
}

/// A note for each name several entries share: each copy became a document.
pub(super) fn copies_noted(hidden: &[(String, u64)]) -> Vec<String> {
    let mut copies: Vec<(&str, usize)> = Vec::new();
    let mut place: HashMap<&str, usize> = HashMap::new();
    for (name, _) in hidden {
        let i = *place.entry(name.as_str()).or_insert_with(|| {
            copies.push((name.as_str(), 1));
            copies.len() - 1
        });
        copies[i].1 += 1;
    }
    copies
        .into_iter()
        .map(|(name, copies)| {
            format!(
                "the zip holds {copies} files named {name}; each was imported as a \
                 document of its own"
            )
        })
        .collect()
}

/// Why a hidden zip entry was not read.
pub(super) enum Hidden {
    TooBig(u64),
    Unreadable(String),
}

/// A zip entry hidden from the index, read from its local header at `at`.
pub(super) fn read_hidden(path: &Path, at: u64, limit: u64) -> Result<Vec<u8>, Hidden> {
    let unreadable = |e: &dyn std::fmt::Display| Hidden::Unreadable(e.to_string());
    let mut file = std::io::BufReader::new(File::open(path).map_err(|e| unreadable(&e))?);
    file.seek(std::io::SeekFrom::Start(at))
        .map_err(|e| unreadable(&e))?;
    let entry = zip::read::read_zipfile_from_stream(&mut file)
        .map_err(|e| unreadable(&e))?
        .ok_or_else(|| Hidden::Unreadable("its entry has gone".into()))?;
    if entry.size() > limit {
        return Err(Hidden::TooBig(entry.size()));
    }
    let mut bytes = Vec::with_capacity(entry.size() as usize);
    entry
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(&e))?;
    if bytes.len() as u64 > limit {
        return Err(Hidden::TooBig(bytes.len() as u64));
    }
    Ok(bytes)
}
