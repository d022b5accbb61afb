//! The disk fails under a running server: full, or the write-ahead log made
//! immutable. Saves are refused with the user's text kept, `/readyz` says so
//! while it lasts, and the next save after the fault clears succeeds. These are
//! faults of SQLite files: they skip on PostgreSQL, and without root (mounting a
//! tmpfs and `chattr` need it) they skip with a loud message.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;

use crate::helpers::{TestApp, on_postgres, spawn_with, textareas};

fn skip_unless_root_on_sqlite(test: &str) -> bool {
    if on_postgres() {
        eprintln!("{test}: a fault of SQLite files; nothing to check on PostgreSQL");
        return true;
    }
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    if !root {
        eprintln!("\n*** SKIPPED {test}: needs root (mount -t tmpfs, chattr) ***\n");
    }
    !root
}

/// A tmpfs of 8 MiB mounted over a temp folder, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=8m", "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("running mount");
        assert!(status.success(), "mounting a tmpfs");
        Self { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file until the disk has no room left; returns its path.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let path = self.path().join("filler");
        let mut file = std::fs::File::create(&path).expect("creating the filler");
        let chunk = vec![0x5a_u8; 64 * 1024];
        while file.write_all(&chunk).is_ok() {}
        let single = [0x5a_u8; 1];
        while file.write_all(&single).is_ok() {}
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// About 150 KB of words that do not repeat much, so the save needs many new
/// pages in the write-ahead log.
fn long_text(marker: &str) -> String {
    let mut text = format!("{marker}\n");
    let mut n: u64 = 7;
    while text.len() < 150_000 {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        text.push_str(&format!("word{:x} ", n >> 40));
    }
    text
}

async fn readyz(app: &TestApp) -> (StatusCode, String) {
    let res = reqwest::get(format!("{}/readyz", app.address))
        .await
        .expect("GET /readyz");
    let status = res.status();
    (status, res.text().await.expect("body"))
}

async fn spawn_on(folder: &Path) -> TestApp {
    let url = format!("sqlite://{}", folder.join("quire.db").display());
    spawn_with(move |c| c.database_url = url).await
}

#[tokio::test]
async fn a_full_disk_refuses_the_save_keeps_the_text_and_the_next_save_succeeds() {
    if skip_unless_root_on_sqlite("a_full_disk_refuses_the_save") {
        return;
    }
    let disk = SmallDisk::mount();
    let app = spawn_on(disk.path()).await;
    let id = app.create_document("Diary", "first words").await;
    let filler = disk.fill();

    let mine = long_text("MY-UNSAVED-WORDS");
    let res = app.save(&id, "Diary", &mine, 1).await;
    let status = res.status();
    let page = res.text().await.expect("body");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{page}");
    assert!(page.contains("disk is full"), "the page says why: {page}");
    assert!(
        textareas(&page)
            .iter()
            .any(|t| t.trim_end() == mine.trim_end()),
        "the user's text comes back in the editor"
    );
    let (ready, why) = readyz(&app).await;
    assert_eq!(ready, StatusCode::SERVICE_UNAVAILABLE, "/readyz: {why}");
    assert!(why.contains("disk is full"), "/readyz says why: {why}");

    std::fs::remove_file(filler).expect("freeing the space");
    let (ready, why) = readyz(&app).await;
    assert_eq!(ready, StatusCode::OK, "/readyz once there is room: {why}");
    let res = app.save(&id, "Diary", &mine, 1).await;
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "the next save succeeds"
    );
    let (_, shown) = app.get_text(&format!("/d/{id}")).await;
    assert!(shown.contains("MY-UNSAVED-WORDS"));
    let again = app.create_document("Another", "more words").await;
    assert!(!again.is_empty(), "creating works too");
}

#[tokio::test]
async fn an_immutable_wal_refuses_the_save_and_the_next_save_after_it_clears_succeeds() {
    if skip_unless_root_on_sqlite("an_immutable_wal_refuses_the_save") {
        return;
    }
    let folder = tempfile::tempdir().expect("temp dir");
    let app = spawn_on(folder.path()).await;
    let id = app.create_document("Notes", "first words").await;
    let wal = folder.path().join("quire.db-wal");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(&wal)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") {
        eprintln!("\n*** SKIPPED an_immutable_wal: this file system has no immutable flag ***\n");
        return;
    }

    let mine = long_text("WAL-WORDS");
    let res = app.save(&id, "Notes", &mine, 1).await;
    let status = res.status();
    let page = res.text().await.expect("body");
    let (ready, why) = readyz(&app).await;
    assert!(chattr("-i"), "clearing the immutable flag");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{page}");
    assert!(
        textareas(&page)
            .iter()
            .any(|t| t.trim_end() == mine.trim_end()),
        "the user's text comes back in the editor"
    );
    assert_eq!(ready, StatusCode::SERVICE_UNAVAILABLE, "/readyz: {why}");

    let (ready, why) = readyz(&app).await;
    assert_eq!(ready, StatusCode::OK, "/readyz once writable: {why}");
    let res = app.save(&id, "Notes", &mine, 1).await;
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "the next save succeeds"
    );
}
