//! `quire import` and `quire export` through the real binary over real files.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Output;

use super::quire;

struct Instance {
    dir: tempfile::TempDir,
    url: String,
}

impl Instance {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = super::pg::database_url(dir.path());
        Self { dir, url }
    }

    fn run(&self, args: &[&str]) -> Output {
        quire()
            .args(args)
            .env("QUIRE_DATABASE_URL", &self.url)
            .env("QUIRE_LOG", "warn")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Exports everything and returns the zip's files by name.
    fn exported(&self) -> BTreeMap<String, String> {
        let zip = self.dir.path().join("check.zip");
        self.ok(&["export", zip.to_str().unwrap(), "--force"]);
        read_zip(&zip)
    }
}

fn read_zip(path: &Path) -> BTreeMap<String, String> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            (f.name().unwrap().to_string(), text)
        })
        .collect()
}

fn titles(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut t: Vec<String> = files
        .iter()
        .filter(|(name, _)| name.starts_with("documents/"))
        .filter_map(|(_, text)| {
            let line = text.lines().find(|l| l.starts_with("title: "))?;
            serde_json::from_str(&line["title: ".len()..]).ok()
        })
        .collect();
    t.sort();
    t
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn folder_import_takes_titles_from_front_matter_then_heading_then_file_name() {
    let q = Instance::new();
    let src = tempfile::tempdir().unwrap();
    write(
        src.path(),
        "a.md",
        b"---\ntitle: From front matter\ntags: [x, y]\n---\n# Not this\n",
    );
    write(
        src.path(),
        "deep/er/b.markdown",
        b"intro\n\n# From the heading\n",
    );
    write(src.path(), "my_notes.txt", b"no heading here\r\n");
    write(src.path(), "photo.png", b"\x89PNG");
    write(src.path(), ".obsidian/workspace.md", b"tool data");

    let out = q.ok(&["import", src.path().to_str().unwrap()]);
    assert!(out.contains("imported 3 documents"), "{out}");
    assert!(out.contains("ignored 1 files"), "{out}");

    let files = q.exported();
    assert_eq!(
        titles(&files),
        ["From front matter", "From the heading", "my notes"]
    );
    let a = files
        .values()
        .find(|t| t.contains("From front matter"))
        .unwrap();
    assert!(
        a.contains("tags: [\"x\",\"y\"]\n"),
        "the tags are read, and written back as a list: {a}"
    );
    // A file keeps the folders it sat in.
    let (name, b) = files
        .iter()
        .find(|(_, t)| t.contains("From the heading"))
        .unwrap();
    assert!(name.starts_with("documents/deep/er/"), "{name}");
    assert!(b.contains("folder: \"deep/er\"\n"), "{b}");
    let notes = files.values().find(|t| t.contains("my notes")).unwrap();
    assert!(
        notes.ends_with("---\nno heading here\n"),
        "CRLF stored as LF: {notes:?}"
    );
    assert!(files.contains_key("manifest.json"));
}

#[test]
fn oversized_and_non_utf8_files_are_skipped_with_their_reason() {
    let q = Instance::new();
    let src = tempfile::tempdir().unwrap();
    write(src.path(), "big.md", &[b'x'; 500]);
    write(src.path(), "latin1.md", b"caf\xe9\n");
    write(src.path(), "fine.md", b"# Fine\n");

    let out = quire()
        .args(["import", src.path().to_str().unwrap()])
        .env("QUIRE_DATABASE_URL", &q.url)
        .env("QUIRE_MAX_DOC_BYTES", "100")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("skipped big.md: The document is 500 bytes")
            && text.contains("the limit is 100 bytes"),
        "{text}"
    );
    assert!(
        text.contains("skipped latin1.md: it is not UTF-8 text (invalid bytes at offset 3)"),
        "{text}"
    );
    assert!(
        text.contains("imported 1 documents") && text.contains("skipped 2 files"),
        "{text}"
    );
}

#[test]
fn running_an_import_again_adds_only_what_is_new() {
    let q = Instance::new();
    let src = tempfile::tempdir().unwrap();
    for i in 0..5 {
        write(
            src.path(),
            &format!("n{i}.md"),
            format!("# Note {i}\n").as_bytes(),
        );
    }
    let first = q.ok(&["import", src.path().to_str().unwrap()]);
    assert!(first.contains("imported 5 documents"), "{first}");

    write(src.path(), "n5.md", b"# Note 5\n");
    let again = q.ok(&["import", src.path().to_str().unwrap()]);
    assert!(again.contains("imported 1 documents"), "{again}");
    assert!(again.contains("skipped n0.md: document "), "{again}");
    assert!(again.contains("is already in quire"), "{again}");
    assert_eq!(titles(&q.exported()).len(), 6, "nothing doubled");
}

#[test]
fn a_zip_of_markdown_files_imports_like_a_folder() {
    let q = Instance::new();
    let path = q.dir.path().join("in.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, text) in [
        ("notes/one.md", "# One\n"),
        ("notes/two.txt", "two"),
        ("../escape.md", "# Escape\n"),
        ("image.jpg", "..."),
    ] {
        zip.start_file(name, opts).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();

    let out = q.ok(&["import", path.to_str().unwrap()]);
    assert!(out.contains("imported 2 documents"), "{out}");
    assert!(
        out.contains("skipped ../escape.md: its name leads out of the zip"),
        "{out}"
    );
    assert!(out.contains("ignored 1 files"), "{out}");
    assert_eq!(titles(&q.exported()), ["One", "two"]);
}

#[test]
fn an_owner_without_an_account_is_skipped_unless_owner_is_given() {
    let q = Instance::new();
    let src = tempfile::tempdir().unwrap();
    write(src.path(), "x.md", b"---\nowner: nobody\n---\ntext\n");
    let out = q.ok(&["import", src.path().to_str().unwrap()]);
    assert!(
        out.contains("skipped x.md: its owner \"nobody\" has no account here"),
        "{out}"
    );

    let mut child = quire()
        .args(["user", "add", "admin", "--password-stdin"])
        .env("QUIRE_DATABASE_URL", &q.url)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "a long enough password").unwrap();
    assert!(child.wait().unwrap().success());

    let out = q.ok(&["import", src.path().to_str().unwrap(), "--owner", "admin"]);
    assert!(out.contains("imported 1 documents"), "{out}");
    assert!(
        out.contains("1 documents named an owner without an account"),
        "{out}"
    );
    let files = q.exported();
    assert!(files.values().any(|t| t.contains("owner: \"admin\"")));

    let bad = q.run(&["import", src.path().to_str().unwrap(), "--owner", "ghost"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no account called \"ghost\""));
}

#[test]
fn export_refuses_to_overwrite_and_import_of_nothing_is_an_error() {
    let q = Instance::new();
    let zip = q.dir.path().join("e.zip");
    q.ok(&["export", zip.to_str().unwrap()]);
    let again = q.run(&["export", zip.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));

    let missing = q.run(&["import", "/nonexistent/folder"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("there is nothing at"));
    let not_zip = q.dir.path().join("fake.zip");
    std::fs::write(&not_zip, b"not a zip").unwrap();
    let bad = q.run(&["import", not_zip.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a zip file"));
}

#[test]
fn a_document_whose_history_was_damaged_is_skipped_whole_and_the_rest_imported() {
    let from = Instance::new();
    from.ok(&["seed", "--count", "3", "--size", "300"]);
    let export = from.dir.path().join("e.zip");
    let out = from.ok(&["export", export.to_str().unwrap(), "--history"]);
    assert!(
        out.contains("exported 3 documents with 3 revisions"),
        "{out}"
    );

    let files = read_zip(&export);
    let damaged = files
        .keys()
        .find(|n| n.starts_with("history/"))
        .unwrap()
        .clone();
    let tampered = from.dir.path().join("t.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&tampered).unwrap());
    for (name, text) in &files {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        let text = if *name == damaged {
            format!("{text}tampered\n")
        } else {
            text.clone()
        };
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();

    let to = Instance::new();
    let out = to.ok(&["import", tampered.to_str().unwrap()]);
    assert!(
        out.contains(&format!(
            "its revision file {damaged} is not usable: it does not match its checksum"
        )),
        "{out}"
    );
    assert!(out.contains("imported 2 documents (2 revisions)"), "{out}");
    let id = &damaged["history/".len().."history/".len() + 26];
    assert!(
        !to.exported().keys().any(|n| n.contains(id)),
        "no half document"
    );
}

#[test]
fn an_export_that_fails_half_way_leaves_no_zip_behind_and_the_next_one_works() {
    let q = Instance::new();
    q.ok(&["seed", "--count", "40", "--size", "20000"]);
    let zip = q.dir.path().join("e.zip");
    // Files the export writes may not grow past 64 KiB, and a write past that
    // fails (SIGXFSZ ignored) rather than killing it: the zip breaks half way.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"trap '' XFSZ; ulimit -f 128; exec "$0" export "$1""#)
        .arg(env!("CARGO_BIN_EXE_quire"))
        .arg(&zip)
        .env("QUIRE_DATABASE_URL", &q.url)
        .env("QUIRE_LOG", "warn")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the export cannot have fitted: {stderr}"
    );
    assert!(
        !zip.exists(),
        "a half-written zip was left at {}",
        zip.display()
    );
    let left: Vec<_> = std::fs::read_dir(q.dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".zip"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    let done = q.ok(&["export", zip.to_str().unwrap()]);
    assert!(done.contains("exported 40 documents"), "{done}");
    assert_eq!(
        read_zip(&zip).keys().filter(|n| n.ends_with(".md")).count(),
        40
    );
}

#[test]
fn an_import_indexes_for_search_before_it_finishes_unless_told_to_leave_it_for_later() {
    let q = Instance::new();
    if !q.url.starts_with("sqlite:") {
        return; // PostgreSQL indexes each row as it is written.
    }
    let notes = q.dir.path().join("notes");
    write(&notes, "a.md", b"# Alpha\n\nquinoa salad\n");
    write(&notes, "b.md", b"# Beta\n\nlentil soup\n");
    let path = notes.to_str().unwrap();
    q.ok(&["import", path, "--index-later"]);

    let mut config = quire::config::Config::from_env();
    config.database_url = q.url.clone();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        use quire::db::search::queue::queued;
        let db = quire::db::Db::open(&config).await.unwrap();
        assert_eq!(queued(&db).await.unwrap(), 2, "left for later");
        // Without a server's indexer running, a search indexes first.
        let found =
            quire::documents::search(&db, "lentil", 10, quire::documents::Caller::Quire).await;
        assert_eq!(found.hits.len(), 1);
        assert_eq!(found.hits[0].title, "Beta");
        assert_eq!(queued(&db).await.unwrap(), 0);
        db.close().await;
    });

    write(&notes, "c.md", b"# Gamma\n\nbarley broth\n");
    q.ok(&["import", path]);
    rt.block_on(async {
        let db = quire::db::Db::open(&config).await.unwrap();
        let left = quire::db::search::queue::queued(&db).await.unwrap();
        assert_eq!(left, 0, "indexed before the import finished");
        db.close().await;
    });
}
