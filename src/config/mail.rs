//! Settings for mail: the SMTP server quire sends notices through.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// How the connection to the SMTP server is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SmtpSecurity {
    /// Plain at first, then STARTTLS before anything is sent (port 587).
    Starttls,
    /// TLS from the start (port 465).
    Tls,
    /// No encryption: only for a relay on the same machine or network.
    None,
}

#[derive(Args, Clone, Debug)]
pub struct Mail {
    /// The SMTP server mail goes through, e.g. `smtp.example.org` (unset: no mail).
    #[arg(long, global = true, env = "QUIRE_SMTP_HOST")]
    pub smtp_host: Option<String>,

    /// The SMTP server's port.
    #[arg(long, global = true, env = "QUIRE_SMTP_PORT", default_value_t = 587)]
    pub smtp_port: u16,

    /// `starttls`, `tls` or `none` (only for a relay on the same machine).
    #[arg(
        long,
        global = true,
        env = "QUIRE_SMTP_SECURITY",
        value_enum,
        default_value = "starttls"
    )]
    pub smtp_security: SmtpSecurity,

    /// The user name quire signs in to the SMTP server with (unset: no sign-in).
    #[arg(long, global = true, env = "QUIRE_SMTP_USER")]
    pub smtp_user: Option<String>,

    /// A file holding the SMTP password, e.g. a Docker secret (read at start).
    #[arg(long, global = true, env = "QUIRE_SMTP_PASSWORD_FILE")]
    pub smtp_password_file: Option<PathBuf>,

    /// Who mail comes from, e.g. `quire <quire@example.org>`.
    #[arg(long, global = true, env = "QUIRE_MAIL_FROM")]
    pub mail_from: Option<String>,
}

impl Mail {
    /// How the config table shows the setting `id`, when it is one of these.
    pub(super) fn value_of(&self, id: &str) -> Option<String> {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        Some(match id {
            "smtp_host" => text(&self.smtp_host),
            "smtp_port" => self.smtp_port.to_string(),
            "smtp_security" => format!("{:?}", self.smtp_security).to_lowercase(),
            "smtp_user" => text(&self.smtp_user),
            "smtp_password_file" => self
                .smtp_password_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "mail_from" => text(&self.mail_from),
            _ => return None,
        })
    }

    /// The SMTP password from its file, if one is named; `Err` says what is wrong.
    pub fn smtp_password(&self) -> Result<Option<String>, String> {
        let Some(path) = &self.smtp_password_file else {
            return Ok(None);
        };
        std::fs::read_to_string(path)
            .map(|s| Some(s.trim_end_matches(['\r', '\n']).to_owned()))
            .map_err(|e| format!("QUIRE_SMTP_PASSWORD_FILE {}: {e}", path.display()))
    }
}
