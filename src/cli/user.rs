//! `quire user …`: accounts made and linked from the command line.

use anyhow::Context;
use clap::Subcommand;

use crate::config::Config;
use crate::db::Db;

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
    /// Link an account to a person at the identity provider, so their single
    /// sign-on signs in as it (an administrator's word, instead of the person
    /// proving the account's password on its account page).
    Link {
        name: String,
        /// The provider's subject for the person (`sub`: Keycloak's user id,
        /// Authentik's hashed user id, ...).
        #[arg(long)]
        subject: String,
        /// The provider: QUIRE_OIDC_ISSUER unless given; `header` for a trusted
        /// proxy's header (the subject is then the name it sends).
        #[arg(long)]
        issuer: Option<String>,
    },
}

pub(super) async fn run(command: UserCommand, config: &Config) -> anyhow::Result<()> {
    match command {
        UserCommand::Add {
            name,
            admin,
            password_stdin,
        } => {
            let password = read_password(password_stdin)?;
            let db = Db::open(config).await?;
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
        UserCommand::Link {
            name,
            subject,
            issuer,
        } => {
            let issuer = issuer
                .or_else(|| config.sign_in.oidc_issuer.clone())
                .context("name the provider with --issuer (QUIRE_OIDC_ISSUER is not set)")?;
            let db = Db::open(config).await?;
            let linked =
                crate::accounts::single_sign_on::link_by_name(&db, &name, &issuer, &subject).await;
            db.close().await;
            linked.map_err(|e| anyhow::anyhow!("{e}"))?;
            println!("linked {name} to {subject} at {issuer}");
            Ok(())
        }
    }
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
