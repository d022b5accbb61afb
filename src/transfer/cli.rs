//! The `quire import` and `quire export` commands: options in, progress bars on
//! a terminal, a summary out.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Context;

use super::export::{ExportOptions, export as export_zip};
use super::import::{ImportOptions, Later, import as import_files, skipped_lines};
use crate::config::Config;
use crate::db::Db;

pub async fn import(
    config: &Config,
    path: &Path,
    owner: Option<String>,
    later: Later,
    follow_symlinks: bool,
    (space, spaces_from_folders): (Option<String>, bool),
) -> anyhow::Result<()> {
    anyhow::ensure!(path.exists(), "there is nothing at {}", path.display());
    let db = Db::open(config).await?;
    let space = match space {
        Some(name) => Some(
            crate::teams::spaces::id_by_name(&db, &name)
                .await?
                .with_context(|| format!("there is no space called {name:?}"))?,
        ),
        None => None,
    };
    let opts = ImportOptions {
        cap: config.max_doc_bytes,
        attachment_cap: config.max_attachment_bytes,
        owner: owner.clone(),
        render: !later.render,
        index: !later.index,
        follow_symlinks,
        space,
        spaces_from_folders,
        progress: std::io::stderr().is_terminal(),
    };
    let result = import_files(&db, path, opts).await;
    db.close().await;
    let report = result?;
    for line in skipped_lines(&report, usize::MAX) {
        println!("{line}");
    }
    for note in &report.notes {
        println!("note: {note}");
    }
    for space in &report.new_spaces {
        println!("made the space {space:?}");
    }
    let rate = report.imported as f64 / report.seconds.max(1e-9);
    println!(
        "imported {} documents ({} revisions) from {} in {:.2} s ({:.0} documents/s); \
         attached {} files; {} comments; skipped {} files; ignored {} files that are not .md, .markdown or \
         .txt and that no document shows",
        report.imported,
        report.revisions,
        path.display(),
        report.seconds,
        rate,
        report.attached,
        report.comments,
        report.skipped.len(),
        report.ignored,
    );
    if owner.is_none() {
        match &report.unnamed_owner {
            Some(admin) => println!(
                "documents that name no owner belong to the first admin, {admin} (choose another with --owner USER)"
            ),
            None => println!(
                "there is no admin account yet: documents that name no owner have none; every \
                 signed-in user may read and edit them, and nobody may share or delete them \
                 (give them one with --owner USER)"
            ),
        }
    }
    if report.reassigned > 0 {
        println!(
            "{} documents named an owner without an account here and were given to the --owner account",
            report.reassigned
        );
    }
    Ok(())
}

pub async fn export(
    config: &Config,
    file: &Path,
    history: bool,
    user: Option<String>,
    force: bool,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        force || !file.exists(),
        "{} exists; pass --force to replace it",
        file.display()
    );
    let db = Db::open(config).await?;
    let result = async {
        let viewer = match &user {
            Some(name) => Some(
                crate::db::accounts::id_by_name(&db.read, name)
                    .await?
                    .with_context(|| format!("there is no account called {name:?}"))?,
            ),
            None => None,
        };
        // Written beside the target and renamed at the end: a failed export never
        // leaves a half-written zip under the name asked for.
        let partial = file.with_extension("zip.partial");
        let out = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        let opts = ExportOptions {
            viewer,
            history,
            progress: std::io::stderr().is_terminal(),
        };
        match export_zip(&db, std::io::BufWriter::new(out), opts).await {
            Ok(report) => {
                std::fs::rename(&partial, file)
                    .with_context(|| format!("writing {}", file.display()))?;
                Ok(report)
            }
            Err(e) => {
                std::fs::remove_file(&partial).ok();
                Err(e)
            }
        }
    }
    .await;
    db.close().await;
    let report = result?;
    println!(
        "exported {} documents{} to {}",
        report.documents,
        if history {
            format!(" with {} revisions", report.revisions)
        } else {
            String::new()
        },
        file.display()
    );
    Ok(())
}
