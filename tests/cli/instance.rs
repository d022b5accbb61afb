//! A quire instance the command-line tests run the binary against: its own
//! database (SQLite in a temporary folder, or a fresh PostgreSQL database).

use std::io::Write;
use std::process::{Output, Stdio};

use quire::config::Config;
use quire::db::Db;

use super::quire;

pub struct Instance {
    pub dir: tempfile::TempDir,
    pub url: String,
}

impl Instance {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = super::pg::database_url(dir.path());
        Self { dir, url }
    }

    /// `new`, from inside an async test (a fresh PostgreSQL database is made
    /// on the test's own runtime).
    pub async fn made() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = match super::pg::on_postgres() {
            true => super::pg::fresh_postgres_database().await,
            false => super::pg::database_url(dir.path()),
        };
        Self { dir, url }
    }

    pub fn run(&self, args: &[&str]) -> Output {
        quire()
            .args(args)
            .env("QUIRE_DATABASE_URL", &self.url)
            .env("QUIRE_LOG", "warn")
            .env_remove("QUIRE_PUBLIC_URL")
            .env("QUIRE_BIND", "127.0.0.1:18080")
            .output()
            .unwrap()
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn user(&self, name: &str, admin: bool) {
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
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"correct horse battery staple\n").unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }

    pub async fn db(&self) -> Db {
        let mut config = Config::from_env();
        config.database_url = self.url.clone();
        Db::open(&config).await.unwrap()
    }

    /// The titles of the documents `user` may read, from an export as them.
    pub fn readable_by(&self, user: &str) -> Vec<String> {
        use std::io::Read;
        let zip = self.dir.path().join(format!("{user}.zip"));
        self.ok(&["export", zip.to_str().unwrap(), "--user", user, "--force"]);
        let mut zip = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
        let mut titles = Vec::new();
        for i in 0..zip.len() {
            let mut file = zip.by_index(i).unwrap();
            if !file.name().unwrap().starts_with("documents/") {
                continue;
            }
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            let title = text
                .lines()
                .find_map(|l| l.strip_prefix("title: "))
                .unwrap()
                .trim_matches('"')
                .to_owned();
            titles.push(title);
        }
        titles.sort();
        titles
    }
}
