//! The command line: `quire serve`, `quire migrate`, `quire config`.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::db::Db;
use crate::startup::Application;

mod user;
pub use user::UserCommand;

#[derive(Parser)]
#[command(name = "quire", version, about = "A self-hosted document web app")]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the web server (migrations are applied first).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Fill the database with generated documents (for benchmarks and trying quire out).
    Seed {
        /// How many documents.
        #[arg(long, default_value_t = 10_000)]
        count: usize,
        /// Size of each document body in bytes.
        #[arg(long, default_value_t = 8192)]
        size: usize,
        /// Seed of the generator: the same seed gives the same documents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the documents as Markdown files into this folder instead of the
        /// database (for import benchmarks).
        #[arg(long)]
        into: Option<PathBuf>,
    },
    /// Import a folder (recursively) or a .zip of .md, .markdown and .txt files.
    /// Resumable: each batch commits on its own, and running it again skips what
    /// is already in quire.
    Import {
        path: PathBuf,
        /// Owner of documents whose front matter names no owner, or an owner who
        /// has no account here. Without it documents naming no owner belong to the
        /// first admin (the output says who), and ones naming an unknown owner are
        /// skipped.
        #[arg(long, value_name = "USER")]
        owner: Option<String>,
        /// Render Markdown on each document's first view instead of during the import.
        #[arg(long)]
        render_later: bool,
        /// Finish once the documents are stored, before they are indexed for
        /// search (SQLite): a running `quire serve` indexes them in the
        /// background, and its search page says so until it is done.
        #[arg(long)]
        index_later: bool,
        /// Import what symbolic links in the folder point to, when that is inside
        /// the folder (by default each link is skipped and named).
        #[arg(long)]
        follow_symlinks: bool,
        /// Put the documents in this space (by name): its members read them.
        /// Without it each goes to the space its front matter names (a quire
        /// export's spaces are made again where missing), else to its owner's
        /// personal space.
        #[arg(long, value_name = "NAME")]
        space: Option<String>,
        /// Each top folder becomes a space of that name (made where missing,
        /// every account a member with edit), holding what is under it.
        #[arg(long, conflicts_with = "space")]
        spaces_from_folders: bool,
    },
    /// Export documents to a zip of Markdown files with front matter and a manifest.
    Export {
        file: PathBuf,
        /// Include every revision of every document.
        #[arg(long)]
        history: bool,
        /// Export only what this account may read (default: every document).
        #[arg(long, value_name = "USER")]
        user: Option<String>,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Write a verified snapshot of the database (safe while quire serves). A name
    /// ending in .zst is compressed.
    Backup { file: PathBuf },
    /// Replace the database with a snapshot, or with the replica (--from-replica).
    /// Stop quire first. An existing database is only replaced with --force, and is
    /// kept beside the new one as *.before-restore.
    Restore {
        /// A snapshot made by `quire backup`.
        #[arg(
            required_unless_present = "from_replica",
            conflicts_with = "from_replica"
        )]
        file: Option<PathBuf>,
        /// Restore from QUIRE_REPLICA_URL with Litestream.
        #[arg(long)]
        from_replica: bool,
        /// With --from-replica: the state at this time (RFC 3339, e.g. 2026-11-21T22:41:46Z).
        #[arg(long, requires = "from_replica")]
        timestamp: Option<String>,
        /// Replace an existing database.
        #[arg(long)]
        force: bool,
    },
    /// Copy the SQLite database into an empty PostgreSQL database and verify the copy.
    ///
    /// Stop quire first: writes made during the copy would not be copied.
    /// Everything moves with its keys: documents, history, drafts, accounts,
    /// sessions and API tokens, so after setting QUIRE_DATABASE_URL to the target
    /// and starting quire again everyone stays signed in. A target that holds any
    /// data is refused and left as it was.
    MigrateTo {
        /// The target, e.g. postgres://quire:PASSWORD@localhost/quire.
        #[arg(value_name = "POSTGRES_URL")]
        target: String,
    },
    /// Check the database and whether it is being replicated.
    Doctor,
    /// Exit 0 if the server at QUIRE_BIND answers /healthz (for container health
    /// checks; no curl needed).
    Healthcheck,
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Make a one-use invitation link: whoever opens it chooses their own name
    /// and password, and joins the spaces every new account joins and those named.
    Invite {
        /// A space to join, by name, as NAME or NAME:ROLE (read, edit or
        /// manage; edit when left out). Repeat for several.
        #[arg(long, value_name = "NAME[:ROLE]")]
        space: Vec<String>,
        /// A group to join, by name. Repeat for several.
        #[arg(long, value_name = "NAME")]
        group: Vec<String>,
        /// How many days the link works (1 to 90).
        #[arg(long, default_value_t = 7)]
        days: i64,
    },
    /// Print every setting: its flag, environment variable, effective value and meaning.
    Config,
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve => {
            let app = Application::build(cli.config).await?;
            app.run_until_stopped().await
        }
        Command::Migrate => {
            let db = Db::open(&cli.config).await?;
            db.close().await;
            println!("migrations applied");
            Ok(())
        }
        Command::Seed {
            count,
            size,
            seed,
            into: Some(dir),
        } => crate::seed::write_files(&dir, count, size, seed),
        Command::Seed {
            count,
            size,
            seed,
            into: None,
        } => {
            let db = Db::open(&cli.config).await?;
            crate::seed::seed(&db, count, size, seed, cli.config.max_doc_bytes).await?;
            db.close().await;
            Ok(())
        }
        Command::Import {
            path,
            owner,
            render_later,
            index_later,
            follow_symlinks,
            space,
            spaces_from_folders,
        } => {
            let later = crate::transfer::import::Later {
                render: render_later,
                index: index_later,
            };
            let spaces = (space, spaces_from_folders);
            crate::transfer::cli::import(&cli.config, &path, owner, later, follow_symlinks, spaces)
                .await
        }
        Command::Export {
            file,
            history,
            user,
            force,
        } => crate::transfer::cli::export(&cli.config, &file, history, user, force).await,
        Command::Invite { space, group, days } => {
            let db = Db::open(&cli.config).await?;
            let made = crate::teams::cli::invite(&db, &space, &group, days).await;
            db.close().await;
            let token = made?;
            println!("{}/join/{token}", crate::teams::cli::base_url(&cli.config));
            Ok(())
        }
        Command::User(command) => user::run(command, &cli.config).await,
        Command::Backup { file } => {
            let db = cli.config.sqlite_path().map_err(anyhow::Error::msg)?;
            anyhow::ensure!(db.exists(), "there is no database at {}", db.display());
            let v = crate::db::snapshot::backup(&db, &file).await?;
            println!(
                "wrote {} ({} documents, {} revisions, integrity ok)",
                file.display(),
                v.documents,
                v.revisions
            );
            Ok(())
        }
        Command::Restore {
            file,
            from_replica,
            timestamp,
            force,
        } => {
            let v = match file {
                Some(file) => {
                    let db = cli.config.sqlite_path().map_err(anyhow::Error::msg)?;
                    crate::db::snapshot::restore_snapshot(&file, &db, force).await?
                }
                None if from_replica => {
                    crate::ops::replica::restore_verified(&cli.config, timestamp.as_deref(), force)
                        .await?
                }
                None => anyhow::bail!("name a snapshot file or pass --from-replica"),
            };
            println!(
                "restored {} documents and {} revisions (integrity ok). If Litestream replicates \
                 this database, run `litestream reset` on it before starting replication again.",
                v.documents, v.revisions
            );
            Ok(())
        }
        Command::MigrateTo { target } => migrate_to(&cli.config, &target).await,
        Command::Doctor => doctor(&cli.config).await,
        Command::Healthcheck => healthcheck(&cli.config.bind),
        Command::Config => {
            print!("{}", config_table(&cli.config));
            let names = std::env::vars_os().map(|(name, _)| name);
            for unknown in crate::config::unknown_settings(names) {
                println!("warning: {unknown}");
            }
            Ok(())
        }
    }
}

fn healthcheck(bind: &str) -> anyhow::Result<()> {
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::Duration;
    let mut addr: SocketAddr = bind.parse().context("QUIRE_BIND is not an address")?;
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(3))
        .with_context(|| format!("connecting to {addr}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(3)))?;
    stream.write_all(b"GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n")?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).context("reading the answer")?;
    anyhow::ensure!(
        head.starts_with(b"HTTP/1.") && &head[9..12] == b"200",
        "/healthz answered {}",
        String::from_utf8_lossy(&head)
    );
    println!("ok");
    Ok(())
}

async fn migrate_to(config: &Config, target: &str) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    let report =
        crate::ops::migrate_to::migrate_to(config, target, std::io::stderr().is_terminal()).await?;
    print!("{}", crate::ops::migrate_to::table(&report));
    let differ = report.mismatched();
    anyhow::ensure!(
        differ.is_empty() && report.committed,
        "the copy in {} differs from the source in: {}; it was rolled back, so the target \
         is as empty as before",
        crate::db::redact(target),
        differ.join(", ")
    );
    println!(
        "verified: {} rows in {} tables copied to {} in {:.1} s; set QUIRE_DATABASE_URL to it \
         and start quire",
        report.rows(),
        report.tables.len(),
        crate::db::redact(target),
        report.seconds
    );
    Ok(())
}

async fn doctor(config: &Config) -> anyhow::Result<()> {
    let db = config.sqlite_path().map_err(anyhow::Error::msg)?;
    println!("database: {}", db.display());
    if !db.exists() {
        println!("database: missing (quire serve creates it; restore first if you have a replica)");
    } else {
        let v = crate::db::snapshot::verify(&db).await?;
        println!(
            "database: integrity ok, {} documents, {} revisions, {} bytes",
            v.documents, v.revisions, v.bytes
        );
    }
    for line in crate::ops::replica::report(config)? {
        println!("{line}");
    }
    Ok(())
}

fn config_table(config: &Config) -> String {
    let rows = config.table();
    let head = ["flag", "environment", "value", "meaning"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([head[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = format!(
        "{:w0$}  {:w1$}  {:w2$}  {}\n",
        head[0], head[1], head[2], head[3]
    );
    for r in &rows {
        out.push_str(&format!(
            "{:w0$}  {:w1$}  {:w2$}  {}\n",
            r[0], r[1], r[2], r[3]
        ));
    }
    out
}
