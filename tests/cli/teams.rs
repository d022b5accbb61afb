//! Spaces on the command line: `quire import --space` puts a folder where a
//! team reads it, and `quire invite` makes a link to join.

use std::io::Write;
use std::process::Stdio;

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

    fn run(&self, args: &[&str]) -> std::process::Output {
        quire()
            .args(args)
            .env("QUIRE_DATABASE_URL", &self.url)
            .env("QUIRE_LOG", "warn")
            .env_remove("QUIRE_PUBLIC_URL")
            .env("QUIRE_BIND", "127.0.0.1:18080")
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

    fn user(&self, name: &str, admin: bool) {
        let mut args = vec!["user", "add", name, "--password-stdin"];
        if admin {
            args.push("--admin");
        }
        let mut child = quire()
            .args(&args)
            .env("QUIRE_DATABASE_URL", &self.url)
            .env("QUIRE_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"correct horse battery staple\n")
            .unwrap();
        assert!(child.wait().unwrap().success());
    }

    /// The titles of the documents `user` may read, from an export as them.
    fn readable_by(&self, user: &str) -> String {
        let zip = self.dir.path().join(format!("{user}.zip"));
        self.ok(&["export", zip.to_str().unwrap(), "--user", user, "--force"]);
        let mut zip = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
        (0..zip.len())
            .map(|i| zip.by_index(i).unwrap().name().unwrap().to_string() + "\n")
            .collect()
    }
}

#[test]
fn an_import_into_the_team_space_is_read_by_the_team_and_one_without_stays_with_its_owner() {
    let q = Instance::new();
    q.user("ada", true);
    q.user("bo", false);
    let team = q.dir.path().join("team");
    std::fs::create_dir_all(&team).unwrap();
    std::fs::write(team.join("handbook.md"), "# Handbook\n\nHow we work.\n").unwrap();
    let own = q.dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("diary.md"), "# Diary\n\nMine.\n").unwrap();

    q.ok(&["import", team.to_str().unwrap(), "--space", "team"]);
    q.ok(&["import", own.to_str().unwrap()]);
    let bo = q.readable_by("bo");
    assert!(bo.contains("handbook"), "bo reads the team's import: {bo}");
    assert!(!bo.contains("diary"), "not ada's own: {bo}");
    let ada = q.readable_by("ada");
    assert!(ada.contains("handbook") && ada.contains("diary"), "{ada}");

    let out = q.run(&["import", own.to_str().unwrap(), "--space", "Nowhere"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("there is no space called \"Nowhere\""),
        "{said}"
    );
}

#[test]
fn quire_invite_prints_a_link_to_join_and_refuses_a_space_that_does_not_exist() {
    let q = Instance::new();
    q.user("ada", true);
    let link = q.ok(&["invite", "--space", "Team:read", "--days", "3"]);
    let link = link.trim();
    let token = link
        .strip_prefix("http://127.0.0.1:18080/join/")
        .unwrap_or_else(|| panic!("a link to join: {link}"));
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));

    let out = q.run(&["invite", "--space", "Nowhere"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no space called"));
    let out = q.run(&["invite", "--days", "400"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 90 days"));
}
