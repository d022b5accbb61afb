//! Settings for OpenID Connect sign-in and for local passwords beside it.

use std::path::PathBuf;

use clap::{ArgAction, Args};

use super::Secret;
use super::values::public_url;

#[derive(Args, Clone, Debug)]
pub struct SignIn {
    /// OpenID Connect sign-in: the provider's issuer, e.g.
    /// `https://sso.example.org/realms/team`; quire reads its discovery document
    /// (unset: off).
    #[arg(long, global = true, env = "QUIRE_OIDC_ISSUER", value_parser = public_url)]
    pub oidc_issuer: Option<String>,

    /// The client id quire is registered under at the provider.
    #[arg(long, global = true, env = "QUIRE_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,

    /// The client's secret (or QUIRE_OIDC_CLIENT_SECRET_FILE).
    #[arg(long, global = true, env = "QUIRE_OIDC_CLIENT_SECRET")]
    pub oidc_client_secret: Option<Secret>,

    /// A file holding the client's secret, e.g. a Docker secret
    /// `/run/secrets/oidc_secret` (read at start).
    #[arg(long, global = true, env = "QUIRE_OIDC_CLIENT_SECRET_FILE")]
    pub oidc_client_secret_file: Option<PathBuf>,

    /// The provider's name on the sign-in page's button: "Sign in with NAME".
    #[arg(
        long,
        global = true,
        env = "QUIRE_OIDC_NAME",
        default_value = "single sign-on"
    )]
    pub oidc_name: String,

    /// The scopes quire asks for, separated by spaces.
    #[arg(
        long,
        global = true,
        env = "QUIRE_OIDC_SCOPES",
        default_value = "openid profile email groups"
    )]
    pub oidc_scopes: String,

    /// The claim giving the person's user name (then `email`, then the subject).
    #[arg(
        long,
        global = true,
        env = "QUIRE_OIDC_USERNAME_CLAIM",
        default_value = "preferred_username"
    )]
    pub oidc_username_claim: String,

    /// The claim listing the person's groups, kept in step at each sign-in (empty:
    /// groups are kept in quire).
    #[arg(
        long,
        global = true,
        env = "QUIRE_OIDC_GROUPS_CLAIM",
        default_value = "groups"
    )]
    pub oidc_groups_claim: String,

    /// Whether someone's first sign-in by OpenID Connect makes their account (off:
    /// only people already linked to an account get in).
    #[arg(
        long,
        global = true,
        env = "QUIRE_OIDC_CREATE_ACCOUNTS",
        default_value_t = true,
        action = ArgAction::Set
    )]
    pub oidc_create_accounts: bool,

    /// Whether local passwords sign in beside single sign-on (off: the sign-in
    /// page shows only the provider's button; API tokens keep working).
    #[arg(
        long,
        global = true,
        env = "QUIRE_PASSWORD_SIGN_IN",
        default_value_t = true,
        action = ArgAction::Set
    )]
    pub password_sign_in: bool,
}

impl SignIn {
    /// How the config table shows the setting `id`, when it is one of these.
    pub(super) fn value_of(&self, id: &str) -> Option<String> {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        Some(match id {
            "oidc_issuer" => text(&self.oidc_issuer),
            "oidc_client_id" => text(&self.oidc_client_id),
            "oidc_client_secret" => match &self.oidc_client_secret {
                Some(_) => "(set)".into(),
                None => String::new(),
            },
            "oidc_client_secret_file" => self
                .oidc_client_secret_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "oidc_name" => self.oidc_name.clone(),
            "oidc_scopes" => self.oidc_scopes.clone(),
            "oidc_username_claim" => self.oidc_username_claim.clone(),
            "oidc_groups_claim" => self.oidc_groups_claim.clone(),
            "oidc_create_accounts" => self.oidc_create_accounts.to_string(),
            "password_sign_in" => self.password_sign_in.to_string(),
            _ => return None,
        })
    }

    /// The client secret, from the setting or its file; `Err` says what is wrong.
    pub fn client_secret(&self) -> Result<Option<String>, String> {
        if let Some(secret) = &self.oidc_client_secret {
            return Ok(Some(secret.expose().to_owned()));
        }
        let Some(path) = &self.oidc_client_secret_file else {
            return Ok(None);
        };
        std::fs::read_to_string(path)
            .map(|s| Some(s.trim().to_owned()))
            .map_err(|e| format!("QUIRE_OIDC_CLIENT_SECRET_FILE {}: {e}", path.display()))
    }
}
