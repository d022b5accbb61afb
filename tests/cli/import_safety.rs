//! `quire import` over files a hostile or careless folder may hold: links out of
//! it, NULs that grow the text past the cap, names that are not UTF-8. Each
//! bad file is skipped with its name and why; the rest import.

use std::path::Path;
use std::process::Output;

use super::quire;

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn import(src: &Path, extra: &[&str], env: &[(&str, &str)]) -> (Output, String) {
    let db = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", db.path().join("quire.db").display());
    let out = quire()
        .arg("import")
        .arg(src)
        .args(extra)
        .env("QUIRE_DATABASE_URL", url)
        .env("QUIRE_LOG", "warn")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

#[test]
fn symbolic_links_are_skipped_and_named_unless_asked_for_and_never_leave_the_folder() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.txt", b"the neighbour's secret");
    let src = tempfile::tempdir().unwrap();
    write(src.path(), "fine.md", b"# Fine\n");
    write(src.path(), "notes/inner.md", b"# Inner\n");
    let link = |target: &Path, name: &str| {
        std::os::unix::fs::symlink(target, src.path().join(name)).unwrap();
    };
    link(&outside.path().join("secret.txt"), "innocent.md");
    link(Path::new("/etc/hostname"), "host.txt");
    link(&src.path().join("notes/inner.md"), "alias.md");

    let (out, text) = import(src.path(), &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["innocent.md", "host.txt", "alias.md"] {
        assert!(
            text.contains(&format!("skipped {name}: it is a symbolic link")),
            "{name}: {text}"
        );
    }
    assert!(text.contains("imported 2 documents"), "{text}");

    let (out, text) = import(src.path(), &["--follow-symlinks"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("skipped innocent.md: it leads out of the folder"),
        "{text}"
    );
    assert!(
        text.contains("skipped host.txt: it leads out of the folder"),
        "{text}"
    );
    assert!(
        text.contains("imported 3 documents"),
        "the inside link is followed: {text}"
    );
}

#[test]
fn a_file_whose_nuls_grow_it_past_the_cap_is_skipped_by_name_and_the_rest_import() {
    let src = tempfile::tempdir().unwrap();
    let mut bad = vec![b'a'; 200_000];
    bad.extend(std::iter::repeat_n(0u8, 60_000));
    write(src.path(), "nuls.md", &bad);
    for i in 0..5 {
        write(
            src.path(),
            &format!("good{i}.md"),
            format!("# Good {i}\n").as_bytes(),
        );
    }
    let (out, text) = import(src.path(), &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("skipped nuls.md: The document is 380,000 bytes"),
        "{text}"
    );
    assert!(text.contains("imported 5 documents"), "{text}");
}

#[test]
fn a_file_name_that_is_not_utf8_is_skipped_saying_so() {
    use std::os::unix::ffi::OsStrExt;
    let src = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(src.path().join(name), b"# Latin-1 name\n").unwrap();
    write(src.path(), "fine.md", b"# Fine\n");
    let (out, text) = import(src.path(), &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("its name is not valid UTF-8"), "{text}");
    assert!(!text.contains("No such file"), "{text}");
    assert!(text.contains("imported 1 documents"), "{text}");
}

#[test]
fn two_files_of_the_same_name_in_a_zip_are_both_imported_and_the_output_says_so() {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in [
        ("dupe-a.md", "# First copy\n"),
        ("other.md", "# Other\n"),
        ("dupe-b.md", "# Second copy\n"),
    ] {
        zip.start_file(name, opts).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    let mut bytes = zip.finish().unwrap().into_inner();
    // The writer refuses a second name that is taken: rename the entry afterwards,
    // in its local header and in the central directory.
    let (from, to) = (b"dupe-b.md", b"dupe-a.md");
    let mut i = 0;
    while let Some(at) = bytes[i..].windows(from.len()).position(|w| w == from) {
        bytes[i + at..i + at + to.len()].copy_from_slice(to);
        i += at + to.len();
    }
    let src = tempfile::tempdir().unwrap();
    let file = src.path().join("dupes.zip");
    std::fs::write(&file, bytes).unwrap();

    let (out, text) = import(&file, &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("2 files named dupe-a.md"), "{text}");
    assert!(text.contains("imported 3 documents"), "{text}");
}

/// A document id for file `i`, as quire writes them in front matter.
fn id_for(i: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut id = vec![b'a'; 26];
    let mut n = i;
    for slot in id.iter_mut().take(25) {
        *slot = ALPHABET[n % 32];
        n /= 32;
    }
    String::from_utf8(id).unwrap()
}

/// A zip of `n` Markdown files, each with its id in front matter and a body of
/// about `size` bytes.
fn zip_of(n: usize, size: usize) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..n {
        zip.start_file(format!("note-{i}.md"), opts).unwrap();
        write!(zip, "---\nid: {}\n---\n# Note {i}\n\n", id_for(i)).unwrap();
        let line = format!("Line of note {i}, written to fill it up.\n");
        for _ in 0..size / line.len() {
            zip.write_all(line.as_bytes()).unwrap();
        }
    }
    zip.finish().unwrap().into_inner()
}

/// Runs `quire import` and returns its output and its own peak memory (bytes).
// The child is reaped by `wait4`, which also reports its peak memory.
#[allow(clippy::zombie_processes)]
pub(super) fn import_measured(
    file: &Path,
    db_url: &str,
) -> (std::process::ExitStatus, String, u64) {
    use std::io::Read;
    let mut child = quire()
        .arg("import")
        .arg(file)
        .arg("--render-later")
        .env("QUIRE_DATABASE_URL", db_url)
        .env("QUIRE_LOG", "warn")
        .env("QUIRE_MAX_DOC_BYTES", "400000")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data, filled in by wait4 for this child alone.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: waits for our own child, whose pid is valid until it is reaped here.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "waiting for quire import");
    let status = std::os::unix::process::ExitStatusExt::from_raw(status);
    (status, text, usage.ru_maxrss as u64 * 1024)
}

#[test]
fn importing_a_zip_far_larger_than_memory_allows_keeps_the_import_within_256_mb() {
    // 1,500 files of 256 KiB: 375 MiB of text in a zip of a few MiB. Imported
    // once small (the same ids), then in full: every file is read, checked and
    // prepared, then skipped as already in quire, so the run measures what an
    // import holds without the cost of indexing 375 MiB.
    let n = 1500;
    let dir = tempfile::tempdir().unwrap();
    let db_url = format!("sqlite://{}", dir.path().join("quire.db").display());
    let small = dir.path().join("small.zip");
    std::fs::write(&small, zip_of(n, 0)).unwrap();
    let big = dir.path().join("big.zip");
    std::fs::write(&big, zip_of(n, 256 * 1024)).unwrap();
    assert!(std::fs::metadata(&big).unwrap().len() < 16 << 20);

    let (status, text, _) = import_measured(&small, &db_url);
    assert!(status.success(), "{text}");
    assert!(text.contains(&format!("imported {n} documents")), "{text}");

    let (status, text, peak) = import_measured(&big, &db_url);
    assert!(status.success(), "{text}");
    assert!(text.contains("already in quire"), "{text}");
    assert!(text.contains("imported 0 documents"), "{text}");
    eprintln!(
        "quire import of {n} × 256 KiB files: peak {} MiB",
        peak >> 20
    );
    assert!(
        peak <= 256 << 20,
        "quire import peaked at {} MiB for a zip of {n} × 256 KiB files",
        peak >> 20
    );
}
