use clap::Parser;
use tracing_subscriber::EnvFilter;

use quire::cli::{Cli, Command, run};
use quire::config::LogFormat;

/// Large allocations (a password check's 19 MiB, an import's parts) go back to
/// the system when freed. glibc otherwise raises its threshold after the first
/// such free and keeps later ones in each thread's heap: a flood of sign-ins
/// left 3 × 19 MiB resident in each thread that checked passwords (175 MiB at
/// its peak; 61 MiB with this, `cargo test --test cli floods`).
fn return_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator option; called once before any
    // other thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
    }
}

/// A SIGBUS is what a memory-mapped database file that can no longer be
/// written causes (SQLite's `-shm` marked immutable between quire's look and
/// its use, see `Db::storage_refused`): the process cannot go on, but it says
/// why before it ends, instead of vanishing without a log line.
fn explain_sigbus() {
    extern "C" fn on_sigbus(_: libc::c_int) {
        const WHY: &[u8] = b"quire stopped: SIGBUS, a memory-mapped file could not be \
written. Most likely the database's -shm file was marked immutable or append-only \
(check with `lsattr`, undo with `chattr -i -a`), or the disk failed. Fix it and \
start quire again; what was committed is safe.\n";
        // SAFETY: write(2), signal(2) and raise(3) are async-signal-safe; the
        // default action then ends the process as the signal would have.
        unsafe {
            libc::write(2, WHY.as_ptr().cast(), WHY.len());
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
            libc::raise(libc::SIGBUS);
        }
    }
    #[cfg(unix)]
    // SAFETY: installs a handler that only makes async-signal-safe calls.
    unsafe {
        libc::signal(
            libc::SIGBUS,
            on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// The child that reads an attached file's text (`documents::extraction`):
/// at most 1 GiB of memory and 20 s of CPU, so a hostile file ends the child,
/// not the server. One thread, no runtime: nothing else shares its limits.
fn limit_reader() {
    let limit = |resource, value: libc::rlim_t| {
        let lim = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit only reads the struct it is given.
        unsafe { libc::setrlimit(resource, &lim) }
    };
    limit(libc::RLIMIT_AS, 1 << 30);
    limit(libc::RLIMIT_CPU, 20);
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some("extract-text") {
        limit_reader();
        std::process::exit(quire::extract::child(args.next().as_deref()));
    }
    return_large_allocations();
    explain_sigbus();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve())
}

async fn serve() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // PostgreSQL's notices ("relation ... already exists, skipping" at every start)
    // are not news to an operator unless asked for.
    let quiet = |f: EnvFilter| match quire::db::quiet_notices(&cli.config.log).map(str::parse) {
        Some(Ok(d)) => f.add_directive(d),
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
    // A misspelt setting would otherwise be ignored without a word. `quire config`
    // prints the same sentences under its table instead.
    if !matches!(cli.command, Command::Config) {
        quire::config::warn_about_unknown_settings();
    }
    run(cli).await
}
