//! What `quire` refuses or warns about at start, with a message that says what to
//! fix: database files it cannot use, settings outside what it allows, variables
//! that name no setting.

use std::os::unix::fs::MetadataExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::quire;
use super::server::Server;

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Starts a server on `db`, waits for its `-shm` file, then kills it with
/// SIGKILL, so the `-wal` and `-shm` files stay behind as after a crash.
fn crash_leaving_sidecars(db: &std::path::Path) {
    let mut child = quire()
        .arg("serve")
        .env("QUIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("QUIRE_BIND", "127.0.0.1:0")
        .env_remove("QUIRE_REPLICA_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let shm = db.with_extension("db-shm");
    let started = Instant::now();
    while !shm.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // The server has opened its files once it has run its migrations.
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(shm.exists(), "the server left a -shm file");
}

#[test]
fn an_unwritable_shm_file_is_refused_at_start_with_its_path() {
    if !is_root() {
        eprintln!("\n*** SKIPPED an_unwritable_shm_file: needs root for chattr ***\n");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quire.db");
    crash_leaving_sidecars(&db);
    let shm = db.with_extension("db-shm");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(&shm)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") {
        eprintln!("\n*** SKIPPED an_unwritable_shm_file: no immutable flag here ***\n");
        return;
    }
    let out = quire()
        .arg("migrate")
        .env("QUIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .output()
        .unwrap();
    chattr("-i");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "refused: {err}");
    assert_eq!(
        out.status.code(),
        Some(1),
        "an error exit, not a signal: {err}"
    );
    assert!(err.contains("quire.db-shm"), "names the file: {err}");
    assert!(
        err.contains("cannot be written"),
        "says what is wrong: {err}"
    );
}

fn config_with(name: &str, value: &str) -> std::process::Output {
    quire().arg("config").env(name, value).output().unwrap()
}

#[test]
fn a_document_cap_outside_what_the_schema_holds_is_refused_with_the_range() {
    for value in ["18446744073709551615", "100000000", "0"] {
        let out = config_with("QUIRE_MAX_DOC_BYTES", value);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{value} was accepted");
        assert!(
            err.contains("67108864"),
            "{value}: the message gives the range: {err}"
        );
    }
    assert!(!config_with("QUIRE_MAX_DOC_BYTES", "-1").status.success());
    let out = config_with("QUIRE_MAX_DOC_BYTES", "67108864");
    assert!(out.status.success(), "the ceiling itself is allowed");
}

#[test]
fn an_invalid_log_filter_is_refused_not_ignored() {
    for value in ["verbose", "quire=loud", "info,,"] {
        let out = config_with("QUIRE_LOG", value);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{value:?} was accepted");
        assert!(
            err.contains("log level"),
            "{value:?}: says what is allowed: {err}"
        );
    }
    assert!(
        config_with("QUIRE_LOG", "quire=debug,info")
            .status
            .success()
    );
}

const TYPO_WARNING: &str =
    "QUIRE_DATA_DIR is not a quire setting; did you mean QUIRE_DATABASE_URL?";

#[test]
fn a_misspelt_setting_is_warned_about_at_start_with_the_nearest_name() {
    let mut server = Server::start_with(&[("QUIRE_DATA_DIR", "/srv/quire")]);
    let line = server.wait_for(|l| l.contains("is not a quire setting"));
    server.wait_for(|l| l.contains("quire is ready"));
    server.stop_and_read_all();

    let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON log line");
    assert_eq!(json["level"], "WARN", "{line}");
    assert_eq!(json["message"], TYPO_WARNING, "{line}");
    assert_eq!(json["variable"], "QUIRE_DATA_DIR", "{line}");
}

#[test]
fn rightly_named_settings_and_the_harness_own_variables_give_no_warning() {
    let mut server = Server::start_with(&[
        ("QUIRE_PAGE_CACHE_MB", "8"),
        ("QUIRE_DB_PATH", "/data/quire.db"),
        ("QUIRE_TEST_POSTGRES", ""),
    ]);
    server.wait_for(|l| l.contains("quire is ready"));
    let lines = server.stop_and_read_all();
    let warned: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("is not a quire setting"))
        .collect();
    assert!(warned.is_empty(), "{warned:#?}");
}

#[test]
fn quire_config_shows_a_misspelt_setting_under_its_table() {
    let out = config_with("QUIRE_DATA_DIR", "/srv/quire");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l == format!("warning: {TYPO_WARNING}")),
        "{text}"
    );
}

fn migrate(db: &std::path::Path) -> (bool, String) {
    let out = quire()
        .arg("migrate")
        .env("QUIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_empty_database_file_is_refused_not_taken_for_a_new_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quire.db");
    std::fs::write(&db, b"").unwrap();
    let (ok, err) = migrate(&db);
    assert!(!ok, "an empty file was taken for a database");
    assert!(
        err.contains(&db.display().to_string()),
        "names the path: {err}"
    );
    assert!(err.contains("empty"), "says what is wrong: {err}");
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0, "left as it was");
}

#[test]
fn a_damaged_database_file_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quire.db");
    std::fs::write(&db, vec![0x42u8; 8192]).unwrap();
    let (ok, err) = migrate(&db);
    assert!(!ok);
    assert!(
        err.contains(&db.display().to_string()),
        "names the path: {err}"
    );
}
