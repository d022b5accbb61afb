use clap::Parser;
use tracing_subscriber::EnvFilter;

use quire::cli::{Cli, run};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let filter = EnvFilter::try_new(&cli.config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    run(cli).await
}
