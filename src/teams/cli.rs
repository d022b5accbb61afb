//! `quire invite`: an invitation link made on the server's command line.

use anyhow::Context;

use super::Role;
use super::invitations::{Inviter, Joins, make_join};
use crate::config::Config;
use crate::db::Db;
use crate::db::teams::{groups, spaces};

/// Makes a join link naming spaces (`NAME` or `NAME:ROLE`) and groups by
/// name; returns its token.
pub async fn invite(
    db: &Db,
    space: &[String],
    group: &[String],
    days: i64,
) -> anyhow::Result<String> {
    let mut joins = Joins::default();
    for s in space {
        let (name, role) = match s.rsplit_once(':') {
            Some((name, role)) => (name, Role::parse(role).map_err(|e| anyhow::anyhow!("{e}"))?),
            None => (s.as_str(), Role::Edit),
        };
        let id = spaces::id_by_name(&db.read, name.trim())
            .await?
            .with_context(|| format!("there is no space called {name:?}"))?;
        joins.spaces.push((id, role));
    }
    for g in group {
        let id = groups::id_by_name(&db.read, g.trim())
            .await?
            .with_context(|| format!("there is no group called {g:?}"))?;
        joins.groups.push(id);
    }
    make_join(db, Inviter::Quire, &joins, days)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Where people reach quire: `QUIRE_PUBLIC_URL`, else the address it binds.
pub fn base_url(config: &Config) -> String {
    match &config.public_url {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => {
            let (host, port) = config
                .bind
                .rsplit_once(':')
                .unwrap_or(("localhost", "8080"));
            let host = match host {
                "0.0.0.0" | "[::]" | "" => "localhost",
                h => h,
            };
            format!("http://{host}:{port}")
        }
    }
}
