//! Walking a folder for an import: text files listed, links skipped or followed
//! but never out of the folder.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::transfer::MANIFEST;

/// Where a quire export keeps its own files.
const EXPORT_TREES: [&str; 3] = ["documents/", "history/", "attachments/"];

/// How a folder is walked: from where, and whether symbolic links are followed
/// (never out of the folder).
pub(super) struct Walk {
    pub(super) root: PathBuf,
    /// The root with every link resolved, to tell inside from outside.
    pub(super) real_root: PathBuf,
    pub(super) follow: bool,
    /// Whether the folder is an unpacked quire export (it has a manifest):
    /// then hidden names under `documents/`, `history/` and `attachments/`
    /// are walked too, since the manifest may list them.
    pub(super) export: bool,
    /// Folders already walked, so links in a circle are walked once.
    pub(super) seen: HashSet<PathBuf>,
    /// Every file but the manifest, by its name inside the folder.
    pub(super) found: Vec<String>,
    pub(super) skipped: Vec<(String, String)>,
}

impl Walk {
    pub(super) fn folder(&mut self, dir: &Path) -> anyhow::Result<()> {
        let mut entries = std::fs::read_dir(dir)
            .with_context(|| format!("reading the folder {}", dir.display()))?
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("reading the folder {}", dir.display()))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let shown = path
                .strip_prefix(&self.root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            // Hidden folders and files (.git, .obsidian, .DS_Store) are tools' data.
            if entry.file_name().to_string_lossy().starts_with('.')
                && !(self.export && EXPORT_TREES.iter().any(|t| shown.starts_with(t)))
            {
                continue;
            }
            if entry.file_name().to_str().is_none() {
                self.skipped.push((
                    shown,
                    "its name is not valid UTF-8 (quire keeps names as UTF-8 text); \
                     rename it and import again"
                        .into(),
                ));
                continue;
            }
            let mut kind = entry.file_type()?;
            if kind.is_symlink() {
                match self.through_link(&path) {
                    Ok(target) => kind = target,
                    Err(why) => {
                        self.skipped.push((shown, why));
                        continue;
                    }
                }
            }
            if kind.is_dir() {
                let real = path.canonicalize()?;
                if self.seen.insert(real) {
                    self.folder(&path)?;
                }
            } else if kind.is_file() && shown != MANIFEST {
                self.found.push(shown);
            }
        }
        Ok(())
    }

    /// What a symbolic link points to, when it may be followed.
    fn through_link(&self, path: &Path) -> Result<std::fs::FileType, String> {
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        if !self.follow {
            return Err(format!(
                "it is a symbolic link (to {target}); links are not followed unless \
                 --follow-symlinks is given"
            ));
        }
        inside(&self.real_root, path)?;
        std::fs::metadata(path)
            .map(|m| m.file_type())
            .map_err(|e| format!("it is a symbolic link (to {target}) that leads nowhere: {e}"))
    }
}

/// `path` with every link resolved, when that stays inside `real_root`.
pub(super) fn inside(real_root: &Path, path: &Path) -> Result<PathBuf, String> {
    let real = path
        .canonicalize()
        .map_err(|e| format!("it could not be read: {e}"))?;
    if real.starts_with(real_root) {
        Ok(real)
    } else {
        Err(format!(
            "it leads out of the folder being imported (to {}); quire never imports from \
             outside it",
            real.display()
        ))
    }
}
