//! The command line itself: run the real binary.

use std::process::Command;

#[path = "cli/first_run.rs"]
mod first_run;
#[path = "cli/floods.rs"]
mod floods;
#[path = "cli/import_safety.rs"]
mod import_safety;
#[path = "cli/instance.rs"]
mod instance;
#[path = "cli/live_shm.rs"]
mod live_shm;
#[path = "cli/logs.rs"]
mod logs;
#[path = "cli/migrate_to.rs"]
mod migrate_to;
#[path = "cli/pg.rs"]
mod pg;
#[path = "cli/server.rs"]
mod server;
#[path = "cli/start_checks.rs"]
mod start_checks;
#[path = "cli/teams.rs"]
mod teams;
#[path = "cli/teams_transfer.rs"]
mod teams_transfer;
#[path = "cli/transfer.rs"]
mod transfer;
#[path = "cli/transfer_memory.rs"]
mod transfer_memory;

fn quire() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quire"))
}

#[test]
fn config_prints_every_setting_with_its_effective_value() {
    let out = quire()
        .arg("config")
        .env("QUIRE_MAX_DOC_BYTES", "1234")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for name in [
        "QUIRE_BIND",
        "QUIRE_DATABASE_URL",
        "QUIRE_MAX_DOC_BYTES",
        "QUIRE_LOG",
    ] {
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
    let row = text
        .lines()
        .find(|l| l.contains("QUIRE_MAX_DOC_BYTES"))
        .unwrap();
    assert!(row.contains("1234"), "{row}");
}

#[test]
fn migrate_creates_the_database_and_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/folder/quire.db");
    let out = quire()
        .arg("migrate")
        .env("QUIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(db.exists());
}

#[test]
fn a_database_url_quire_cannot_use_is_a_clear_error() {
    let out = quire()
        .arg("migrate")
        .env("QUIRE_DATABASE_URL", "mysql://localhost/x")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("QUIRE_DATABASE_URL"), "{err}");
}

#[test]
fn help_lists_the_commands() {
    let out = quire().arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["serve", "migrate", "config"] {
        assert!(text.contains(cmd), "{cmd}");
    }
}

#[test]
fn user_add_creates_an_account_that_can_sign_in_and_refuses_duplicates() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let url = pg::database_url(dir.path());
    let add = |name: &str, password: &str| {
        let mut child = quire()
            .args(["user", "add", name, "--admin", "--password-stdin"])
            .env("QUIRE_DATABASE_URL", &url)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        writeln!(child.stdin.take().unwrap(), "{password}").unwrap();
        child.wait_with_output().unwrap()
    };

    let ok = add("admin", "a long enough password");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("created administrator admin"));

    let again = add("ADMIN", "another long password");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("taken"));

    let short = add("other", "short");
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("at least 10"));
}

#[test]
fn backup_and_doctor_report_on_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("q.db").display());
    let run = |args: &[&str]| {
        quire()
            .args(args)
            .env("QUIRE_DATABASE_URL", &url)
            .env_remove("QUIRE_REPLICA_URL")
            .output()
            .unwrap()
    };
    assert!(
        run(&["seed", "--count", "3", "--size", "100"])
            .status
            .success()
    );

    let out = run(&["backup", dir.path().join("b.db").to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 documents"));

    let doctor = run(&["doctor"]);
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(text.contains("integrity ok, 3 documents"), "{text}");
    assert!(text.contains("NOT replicated"), "{text}");

    let again = run(&["backup", dir.path().join("b.db").to_str().unwrap()]);
    assert!(!again.status.success(), "never overwrites a backup");
}

#[test]
fn healthcheck_fails_when_nothing_listens() {
    let out = quire()
        .arg("healthcheck")
        .env("QUIRE_BIND", "127.0.0.1:9")
        .output()
        .unwrap();
    assert!(!out.status.success());
}
