//! Folder names quire accepts survive an export and an import: hidden ones
//! (`.hidden`), ones of dots only (`....`) and ones a zip reader takes for a
//! drive letter (`x: y`). Through the zip (uploaded and on the command line),
//! through the zip unpacked into a folder, and from an export made before
//! such names were written escaped. A file an import leaves out is left out
//! for a reason that is true.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, quire, spawn_app};
use crate::transfer::make_zip;
use crate::transfer_upload::upload;

const FOLDERS: [&str; 5] = [
    ".hidden/inner",
    "..../...",
    "x: y/#z/'q'",
    "Projects/Garden",
    "",
];

fn zip_files(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            (f.name().unwrap().to_string(), data)
        })
        .collect()
}

/// An app with one document in each of `FOLDERS`, titled after its folder.
async fn app_with_every_folder() -> TestApp {
    let app = spawn_app().await;
    for folder in FOLDERS {
        let title = format!("In [{folder}]");
        let res = app
            .post_form(
                "/docs",
                &[("title", &title), ("body", "text\n"), ("folder", folder)],
            )
            .await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{folder:?}");
    }
    app
}

async fn export(app: &TestApp) -> Vec<u8> {
    let res = app.get("/account/export?history=on").await;
    assert_eq!(res.status(), StatusCode::OK);
    res.bytes().await.unwrap().to_vec()
}

/// Each document's (title, folder) as an export's front matter gives them.
fn places(zip: &[u8]) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = zip_files(zip)
        .iter()
        .filter(|(name, _)| name.starts_with("documents/"))
        .map(|(_, text)| {
            let text = String::from_utf8_lossy(text);
            let field = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(key))
                    .map(|v| serde_json::from_str::<String>(v).unwrap())
                    .unwrap_or_default()
            };
            (field("title: "), field("folder: "))
        })
        .collect();
    found.sort();
    found
}

fn expected() -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = FOLDERS
        .iter()
        .map(|f| (format!("In [{f}]"), f.to_string()))
        .collect();
    want.sort();
    want
}

/// A fresh database with the account that owns the documents.
async fn fresh_db(app: &TestApp) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("q.db").display());
    let mut config = app.config.clone();
    config.database_url = url.clone();
    let db = quire::db::Db::open(&config).await.unwrap();
    quire::accounts::create_user(&db, "alice", PASSWORD, true)
        .await
        .unwrap();
    db.close().await;
    (dir, url)
}

fn unzip(zip: &[u8], into: &Path) {
    for (name, data) in zip_files(zip) {
        let path = into.join(&name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, data).unwrap();
    }
}

#[tokio::test]
async fn documents_in_hidden_dotted_and_colon_folders_survive_export_and_import() {
    let app = app_with_every_folder().await;
    let first = export(&app).await;
    assert_eq!(places(&first), expected());

    // The admin's upload page.
    let fresh = spawn_app().await;
    let (status, html) = upload(&fresh.client, &fresh.address, Some(&fresh.csrf), &first).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Imported 5 documents"), "{html}");
    assert!(!html.contains("Ignored"), "{html}");
    let second = export(&fresh).await;
    assert_eq!(places(&second), expected());
    assert!(first == second, "the zips are byte-identical");

    // `quire import` of the zip, and of the zip unpacked into a folder.
    let zip = app.dir.path().join("export.zip");
    std::fs::write(&zip, &first).unwrap();
    let unpacked = app.dir.path().join("unpacked");
    unzip(&first, &unpacked);
    for from in [&zip, &unpacked] {
        let (dir, url) = fresh_db(&app).await;
        let out = quire(&url, &["import", from.to_str().unwrap()]).await;
        assert!(out.contains("imported 5 documents"), "{out}");
        assert!(out.contains("skipped 0 files; ignored 0 files"), "{out}");
        let again = dir.path().join("again.zip");
        quire(&url, &["export", again.to_str().unwrap(), "--history"]).await;
        let again = std::fs::read(&again).unwrap();
        assert_eq!(places(&again), expected(), "from {}", from.display());
        assert!(first == again, "from {}: byte-identical", from.display());
    }
}

#[tokio::test]
async fn an_export_that_wrote_such_folders_as_they_are_still_imports_whole() {
    let app = app_with_every_folder().await;
    let files = zip_files(&export(&app).await);
    // The export as it was written before names were escaped: each document
    // at `documents/<its folder as it is>/`, the manifest saying so.
    let mut manifest: serde_json::Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
    let mut renamed = BTreeMap::new();
    for (name, data) in &files {
        let folder = String::from_utf8_lossy(data)
            .lines()
            .find_map(|l| l.strip_prefix("folder: "))
            .map(|v| serde_json::from_str::<String>(v).unwrap());
        let new = match folder.filter(|_| name.starts_with("documents/")) {
            Some(folder) => format!("documents/{folder}/{}", name.rsplit('/').next().unwrap()),
            None => name.clone(),
        };
        for f in manifest["files"].as_array_mut().unwrap() {
            if f["path"] == name.as_str() {
                f["path"] = new.clone().into();
            }
        }
        renamed.insert(new, data.clone());
    }
    assert!(
        renamed
            .keys()
            .any(|k| k.starts_with("documents/.hidden/inner/"))
            && renamed
                .keys()
                .any(|k| k.starts_with("documents/x: y/#z/'q'/")),
        "{:?}",
        renamed.keys()
    );
    let manifest = serde_json::to_vec_pretty(&manifest).unwrap();
    renamed.insert("manifest.json".into(), manifest);
    let entries: Vec<(&str, &[u8])> = renamed
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    let old = make_zip(&entries);

    let fresh = spawn_app().await;
    let (status, html) = upload(&fresh.client, &fresh.address, Some(&fresh.csrf), &old).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Imported 5 documents"), "{html}");
    assert_eq!(places(&export(&fresh).await), expected());
}

#[tokio::test]
async fn a_vault_zip_says_why_it_left_out_hidden_notes_and_names_leading_out() {
    let app = spawn_app().await;
    let dir = app.dir.path();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(dir.join("v.zip")).unwrap());
    for name in [
        "notes/a.md",
        "x: y/b.md",
        ".trash/old.md",
        "../escape.md",
        ".obsidian/app.json",
    ] {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(b"# Note\n").unwrap();
    }
    zip.finish().unwrap();
    let (_db, url) = fresh_db(&app).await;
    let out = quire(&url, &["import", dir.join("v.zip").to_str().unwrap()]).await;
    assert!(out.contains("imported 2 documents"), "{out}");
    assert!(
        out.contains("skipped .trash/old.md: it is hidden"),
        "a hidden note is not said to be another kind of file: {out}"
    );
    assert!(
        out.contains("skipped ../escape.md: its name leads out of the zip"),
        "{out}"
    );
    assert!(
        out.contains("skipped 2 files; ignored 1 files"),
        "only .obsidian/app.json is another kind of file: {out}"
    );
}
