use clap::Parser;
use tracing_subscriber::EnvFilter;

use quire::cli::{Cli, run};
use quire::config::LogFormat;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // PostgreSQL's notices ("relation ... already exists, skipping" at every start)
    // are not news to an operator unless asked for.
    let quiet = |f: EnvFilter| match "sqlx::postgres::notice=warn".parse() {
        Ok(d) if !cli.config.log.contains("sqlx") => f.add_directive(d),
        _ => f,
    };
    let filter =
        quiet(EnvFilter::try_new(&cli.config.log).unwrap_or_else(|_| EnvFilter::new("info")));
    use std::io::IsTerminal;
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    match cli.config.log_format {
        // One object per event: its fields at the top level, the request's span
        // fields (request_id, method, route) under "span".
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        LogFormat::Text => logs.with_ansi(std::io::stdout().is_terminal()).init(),
    }
    run(cli).await
}
