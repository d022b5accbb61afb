//! The command line: `quire serve`, `quire migrate`, `quire config`.

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
        Command::Seed { count, size, seed } => {
            let db = Db::open(&cli.config).await?;
            crate::seed::seed(&db, count, size, seed, cli.config.max_doc_bytes).await?;
            db.close().await;
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
