//! The table `quire config` prints: every setting with its flag, environment
//! variable, effective value (secrets redacted) and meaning.

use clap::CommandFactory;

use super::{Config, Standalone};

impl Config {
    /// One row per setting: (flag, environment variable, effective value, doc line).
    pub fn table(&self) -> Vec<[String; 4]> {
        let cmd = Standalone::command();
        cmd.get_arguments()
            .filter(|a| a.get_env().is_some())
            .map(|a| {
                let id = a.get_id().as_str();
                [
                    format!("--{}", a.get_long().unwrap_or(id)),
                    a.get_env()
                        .map(|e| e.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    self.value_of(id),
                    a.get_help().map(|h| h.to_string()).unwrap_or_default(),
                ]
            })
            .collect()
    }

    fn value_of(&self, id: &str) -> String {
        match id {
            "bind" => self.bind.clone(),
            "database_url" => redact(&self.database_url),
            "db_connections" => self.db_connections.to_string(),
            "page_cache_mb" => self.page_cache_mb.to_string(),
            "search_language" => self.search_language.clone(),
            "attachment_text" => self.attachment_text.clone(),
            "max_doc_bytes" => self.max_doc_bytes.to_string(),
            "max_import_bytes" => self.max_import_bytes.to_string(),
            "max_attachment_bytes" => self.max_attachment_bytes.to_string(),
            "upload_memory_bytes" => self.upload_memory_bytes.to_string(),
            "durability" => format!("{:?}", self.durability).to_lowercase(),
            "workers" => self.workers.to_string(),
            "body_timeout" => self.body_timeout.to_string(),
            "max_connections" => self.max_connections.to_string(),
            "log" => self.log.clone(),
            "log_format" => format!("{:?}", self.log_format).to_lowercase(),
            "metrics_token" => match self.metrics_token() {
                Some(_) => "(set)".into(),
                None => String::new(),
            },
            "cookie_secure" => self.cookie_secure.to_string(),
            "signup" => self.signup.to_string(),
            "replica_url" => self.replica_url.clone().unwrap_or_default(),
            "litestream" => self.litestream.clone(),
            "trusted_proxies" => self.trusted_proxies.to_string(),
            "public_url" => self.public_url.clone().unwrap_or_default(),
            "auth_header" => self.auth_header.clone().unwrap_or_default(),
            "auth_groups_header" => self.auth_groups_header.clone().unwrap_or_default(),
            "auth_admin_group" => self.auth_admin_group.clone().unwrap_or_default(),
            other => self
                .sign_in
                .value_of(other)
                .or_else(|| self.mail.value_of(other))
                .or_else(|| self.hooks.value_of(other))
                .unwrap_or_else(|| format!("<{other}>")),
        }
    }
}

/// The URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme && url[scheme + 3..at].contains(':') => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}
