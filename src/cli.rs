//! The command line: `quire serve`, `quire migrate`, `quire config`.

use anyhow::Context;
use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::db::Db;
use crate::startup::Application;

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
    },
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Print every setting: its flag, environment variable, effective value and meaning.
    Config,
}

#[derive(Subcommand)]
pub enum UserCommand {
    /// Create an account. The password is asked for at the prompt, or read from
    /// standard input with --password-stdin (for scripts).
    Add {
        name: String,
        /// Make the account an administrator.
        #[arg(long)]
        admin: bool,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
    },
}

fn read_password(from_stdin: bool) -> anyhow::Result<String> {
    use std::io::{BufRead, IsTerminal};
    let stdin = std::io::stdin();
    if from_stdin || !stdin.is_terminal() {
        let mut line = String::new();
        stdin
            .lock()
            .read_line(&mut line)
            .context("reading the password")?;
        return Ok(line.trim_end_matches(['\n', '\r']).to_owned());
    }
    let first = rpassword::prompt_password("Password: ").context("reading the password")?;
    let again = rpassword::prompt_password("Password again: ").context("reading the password")?;
    anyhow::ensure!(first == again, "the two passwords differ");
    Ok(first)
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
        Command::Seed { count, size, seed } => {
            let db = Db::open(&cli.config).await?;
            crate::seed::seed(&db, count, size, seed, cli.config.max_doc_bytes).await?;
            db.close().await;
            Ok(())
        }
        Command::User(UserCommand::Add {
            name,
            admin,
            password_stdin,
        }) => {
            let password = read_password(password_stdin)?;
            let db = Db::open(&cli.config).await?;
            let created = crate::accounts::create_user(&db, &name, &password, admin).await;
            db.close().await;
            let user = created.map_err(|e| anyhow::anyhow!("{e}"))?;
            let role = if user.is_admin {
                "administrator"
            } else {
                "user"
            };
            println!("created {role} {}", user.username);
            Ok(())
        }
        Command::Config => {
            print!("{}", config_table(&cli.config));
            Ok(())
        }
    }
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
