//! Every setting quire reads: its flag, its `QUIRE_*` variable, its default and one
//! line of documentation. The struct is built once by the CLI and passed down.

use std::path::PathBuf;

use clap::{Args, Parser, ValueEnum};

use crate::cidr::CidrList;

mod hooks;
mod mail;
mod sign_in;
mod table;
mod unknown;
mod values;

pub use hooks::Hooks;
pub use mail::{Mail, SmtpSecurity};
pub use sign_in::SignIn;
pub use table::redact;
pub use unknown::{UnknownSetting, unknown_settings, warn_about_unknown_settings};
use values::{header_name, public_url};

/// How hard SQLite works to make a committed write survive a power cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Durability {
    /// `synchronous=NORMAL` in WAL mode: safe against crashes of quire, may lose the
    /// last transactions on power loss.
    Normal,
    /// `synchronous=FULL`: every commit is fsynced.
    Full,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, with the request's fields.
    Json,
}

/// The largest body the schema's `CHECK` lets a row hold (64 MiB).
pub const MAX_DOC_BYTES_CEILING: u64 = 64 * 1024 * 1024;

const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

/// A log filter quire will honour: comma-separated levels and `target=level`
/// pairs. A typo is refused rather than read as the name of a target that logs
/// nothing (`tracing` takes a bare `debg` for one).
fn parse_log_filter(text: &str) -> Result<String, String> {
    let help = "use a level (off, error, warn, info, debug, trace) or target=level pairs \
                separated by commas, e.g. `quire=debug,info`";
    for directive in text.split(',').map(str::trim) {
        let level = match directive.rsplit_once('=') {
            Some((target, level)) if !target.trim().is_empty() => level,
            Some(_) => return Err(format!("{directive:?} names no target; {help}")),
            None => directive,
        };
        if !LEVELS.contains(&level.trim().to_ascii_lowercase().as_str()) {
            return Err(format!("{directive:?} is not a log level; {help}"));
        }
    }
    tracing_subscriber::EnvFilter::try_new(text)
        .map(|_| text.to_owned())
        .map_err(|e| format!("{e}; {help}"))
}

/// A setting that must never be printed: `Debug` and the config table hide it.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_owned()))
    }
}

#[derive(Args, Clone, Debug)]
pub struct Config {
    /// Address and port the web server listens on.
    #[arg(
        long,
        global = true,
        env = "QUIRE_BIND",
        default_value = "127.0.0.1:8080"
    )]
    pub bind: String,

    /// Where the documents live: `sqlite://PATH` (the folder is created if missing) or
    /// `postgres://USER:PASSWORD@HOST/DB` (an existing, empty or quire-made database).
    #[arg(
        long,
        global = true,
        env = "QUIRE_DATABASE_URL",
        default_value = "sqlite://./data/quire.db"
    )]
    pub database_url: String,

    /// PostgreSQL only: connections each quire instance keeps open.
    #[arg(
        long,
        global = true,
        env = "QUIRE_DB_CONNECTIONS",
        default_value_t = 10
    )]
    pub db_connections: u32,

    /// Memory for pages kept ready for repeated views, in MiB (0 turns the cache off).
    #[arg(
        long,
        global = true,
        env = "QUIRE_PAGE_CACHE_MB",
        default_value_t = 32,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=65_536)
    )]
    pub page_cache_mb: usize,

    /// Reading the text of attached files for search: `on` (by this quire, in a child process), `off`, or the path of the quire binary to read with.
    #[arg(
        long,
        global = true,
        env = "QUIRE_ATTACHMENT_TEXT",
        default_value = "on"
    )]
    pub attachment_text: String,

    /// Language of the words a search also finds in other forms (tomatoes: tomato), or `none`.
    #[arg(
        long,
        global = true,
        env = "QUIRE_SEARCH_LANGUAGE",
        default_value = "english",
        value_parser = clap::builder::PossibleValuesParser::new([
            "english", "danish", "dutch", "finnish", "french", "german", "hungarian",
            "italian", "norwegian", "portuguese", "romanian", "russian", "spanish",
            "swedish", "turkish", "none",
        ])
    )]
    pub search_language: String,

    /// Largest document body accepted, in bytes of UTF-8 (1 to 67108864, the schema's ceiling).
    #[arg(
        long,
        global = true,
        env = "QUIRE_MAX_DOC_BYTES",
        default_value_t = 262_144,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_DOC_BYTES_CEILING)
    )]
    pub max_doc_bytes: usize,

    /// SQLite durability: `normal` (WAL, fsync at checkpoints) or `full` (fsync each commit).
    #[arg(long, global = true, env = "QUIRE_DURABILITY", value_enum, default_value_t = Durability::Normal)]
    pub durability: Durability,

    /// Largest zip an administrator may upload for import, in bytes.
    #[arg(
        long,
        global = true,
        env = "QUIRE_MAX_IMPORT_BYTES",
        default_value_t = 268_435_456
    )]
    pub max_import_bytes: usize,

    /// Largest file that may be attached to a document (an image, a PDF), in bytes.
    #[arg(
        long,
        global = true,
        env = "QUIRE_MAX_ATTACHMENT_BYTES",
        default_value_t = 10_485_760
    )]
    pub max_attachment_bytes: usize,

    /// Memory all files being uploaded at once may hold, in bytes (a quarter of the
    /// 256 MB quire is sized for); an upload that finds no room within 5 seconds is
    /// answered 503 with Retry-After, to be sent again.
    #[arg(
        long,
        global = true,
        env = "QUIRE_UPLOAD_MEMORY_BYTES",
        default_value_t = 67_108_864,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 42)
    )]
    pub upload_memory_bytes: usize,

    /// Seconds a request body may take to arrive in full; a slower one gets 408 and its
    /// connection is closed (raise it for large imports over slow links).
    #[arg(
        long,
        global = true,
        env = "QUIRE_BODY_TIMEOUT",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub body_timeout: u64,

    /// Most client connections open at once; more wait until some close (a log line
    /// says so). Keep it under the open-file limit (`ulimit -n`).
    #[arg(
        long,
        global = true,
        env = "QUIRE_MAX_CONNECTIONS",
        default_value_t = 768,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000)
    )]
    pub max_connections: usize,

    /// HTTP worker threads; 0 means one per CPU core.
    #[arg(long, global = true, env = "QUIRE_WORKERS", default_value_t = 0)]
    pub workers: usize,

    /// Let anyone who can reach quire create an account at /signup (off by default).
    #[arg(long, global = true, env = "QUIRE_SIGNUP", default_value_t = false)]
    pub signup: bool,

    /// Mark cookies `Secure` even when quire itself sees plain HTTP (behind a TLS proxy).
    #[arg(
        long,
        global = true,
        env = "QUIRE_COOKIE_SECURE",
        default_value_t = false
    )]
    pub cookie_secure: bool,

    /// Where Litestream replicates the database (file:///path, s3://bucket/path,
    /// sftp://user@host/path); used by `quire restore --from-replica` and `quire doctor`.
    #[arg(long, global = true, env = "QUIRE_REPLICA_URL")]
    pub replica_url: Option<String>,

    /// The Litestream binary quire runs for restores and checks.
    #[arg(
        long,
        global = true,
        env = "QUIRE_LITESTREAM",
        default_value = "litestream"
    )]
    pub litestream: String,

    /// Log filter in `tracing` syntax, e.g. `info` or `quire=debug,info` (levels and
    /// `target=level` pairs; anything else is refused at start).
    #[arg(long, global = true, env = "QUIRE_LOG", default_value = "info", value_parser = parse_log_filter)]
    pub log: String,

    /// Log lines as `text` or `json` (one object per line, with each request's id).
    #[arg(long, global = true, env = "QUIRE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Bearer token /metrics requires; unset, /metrics answers only to loopback.
    #[arg(
        long,
        global = true,
        env = "QUIRE_METRICS_TOKEN",
        hide_env_values = true
    )]
    pub metrics_token: Option<Secret>,

    /// Reverse proxies (addresses or CIDR ranges, comma-separated) whose
    /// X-Forwarded-For/-Proto/-Host and Forwarded headers are believed; from
    /// any other peer those headers are ignored.
    #[arg(long, global = true, env = "QUIRE_TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: CidrList,

    /// The address people reach quire at, e.g. `https://docs.example.org`; public
    /// links are built on it (unset: a trusted proxy's headers, else the Host asked for).
    #[arg(long, global = true, env = "QUIRE_PUBLIC_URL", value_parser = public_url)]
    pub public_url: Option<String>,

    /// Single sign-on by a trusted proxy (Authelia, Authentik, oauth2-proxy): the
    /// header naming the signed-in person, e.g. `Remote-User`; believed only from
    /// QUIRE_TRUSTED_PROXIES (unset: off).
    #[arg(long, global = true, env = "QUIRE_AUTH_HEADER", value_parser = header_name)]
    pub auth_header: Option<String>,

    /// With QUIRE_AUTH_HEADER: the header listing the person's groups, comma-separated,
    /// e.g. `Remote-Groups`; quire keeps those groups and their members in step.
    #[arg(long, global = true, env = "QUIRE_AUTH_GROUPS_HEADER", value_parser = header_name)]
    pub auth_groups_header: Option<String>,

    /// The identity provider's group (from the proxy's header or the OpenID Connect
    /// groups claim) whose members are quire's administrators (unset: administrators
    /// are chosen in quire).
    #[arg(long, global = true, env = "QUIRE_AUTH_ADMIN_GROUP")]
    pub auth_admin_group: Option<String>,

    #[command(flatten)]
    pub sign_in: SignIn,

    #[command(flatten)]
    pub mail: Mail,

    #[command(flatten)]
    pub hooks: Hooks,
}

/// A bare parser so tests and tools can build a `Config` from defaults plus overrides.
#[derive(Parser)]
struct Standalone {
    #[command(flatten)]
    config: Config,
}

impl Config {
    /// The defaults (and any `QUIRE_*` variables set in the environment).
    pub fn from_env() -> Self {
        Standalone::parse_from(["quire"]).config
    }

    /// The path of the SQLite database file named by `database_url`.
    pub fn sqlite_path(&self) -> Result<PathBuf, String> {
        let url = self.database_url.trim();
        let rest = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .ok_or_else(|| {
                format!(
                    "this works on a SQLite database, and QUIRE_DATABASE_URL is {:?} \
                     (on PostgreSQL, use its own tools: pg_dump, streaming replicas)",
                    redact(url)
                )
            })?;
        let path = rest.split('?').next().unwrap_or_default();
        if path.is_empty() {
            return Err("QUIRE_DATABASE_URL names no file, e.g. sqlite://./data/quire.db".into());
        }
        Ok(PathBuf::from(path))
    }

    /// The metrics token, when one is set and not empty.
    pub fn metrics_token(&self) -> Option<&str> {
        self.metrics_token
            .as_ref()
            .map(Secret::expose)
            .filter(|t| !t.trim().is_empty())
    }
}

#[cfg(test)]
mod tests;
