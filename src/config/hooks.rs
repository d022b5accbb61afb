//! Settings for webhooks: where they may post, and how soon a failed post is
//! tried again.

use clap::Args;

use crate::cidr::CidrList;

#[derive(Args, Clone, Debug)]
pub struct Hooks {
    /// Networks (CIDR, comma-separated) webhooks may post to although they are
    /// loopback, private or link-local, e.g. `10.0.5.0/24` for a CI server inside
    /// (unset: only public addresses).
    #[arg(
        long,
        global = true,
        env = "QUIRE_WEBHOOK_ALLOW_NETWORKS",
        default_value = ""
    )]
    pub webhook_allow_networks: CidrList,

    /// Milliseconds before a failed webhook post is tried again; each later try
    /// waits twice as long, eight tries in all.
    #[arg(
        long,
        global = true,
        env = "QUIRE_WEBHOOK_RETRY_MS",
        default_value_t = 10_000
    )]
    pub webhook_retry_ms: u64,
}

impl Hooks {
    /// How the config table shows the setting `id`, when it is one of these.
    pub(super) fn value_of(&self, id: &str) -> Option<String> {
        Some(match id {
            "webhook_allow_networks" => self.webhook_allow_networks.to_string(),
            "webhook_retry_ms" => self.webhook_retry_ms.to_string(),
            _ => return None,
        })
    }
}
