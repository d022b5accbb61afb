//! Invitations instead of invented passwords: a one-use, expiring link that
//! lets someone choose their own name and password (joining the spaces and
//! groups it names), and an admin's one-use link to set a forgotten password.
//! Taking them up is `accounts::invitations`.

use sha2::{Digest, Sha256};

use super::{Manager, Role};
use crate::db::Db;
use crate::db::teams::invitations::{self as stored, Invitation, Pending};
use crate::db::teams::spaces as stored_spaces;
use crate::documents::{DocError, now_ms};

/// How long a link lasts unless told otherwise.
pub const DEFAULT_DAYS: i64 = 7;
const DAY_MS: i64 = 24 * 3600 * 1000;

pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// What an invitation to join names.
#[derive(Debug, Clone, Default)]
pub struct Joins {
    pub spaces: Vec<(i64, Role)>,
    pub groups: Vec<i64>,
}

/// Who makes an invitation: a signed-in person, or quire itself (`quire
/// invite` on the server's command line, which may name any space or group).
#[derive(Clone, Copy, Debug)]
pub enum Inviter<'a> {
    Person(Manager<'a>),
    Quire,
}

/// Makes a link to join: admins for any spaces and groups, a space's managers
/// for the spaces they manage (and no groups). Returns the token, shown once.
pub async fn make_join(
    db: &Db,
    by: Inviter<'_>,
    joins: &Joins,
    days: i64,
) -> Result<String, DocError> {
    if !(1..=90).contains(&days) {
        return Err(DocError::Invalid("A link lasts 1 to 90 days.".into()));
    }
    if let Inviter::Person(m) = by
        && !m.is_admin
    {
        if !joins.groups.is_empty() {
            return Err(DocError::Forbidden);
        }
        let mut manages_one = false;
        for (space, _) in &joins.spaces {
            if stored_spaces::role(&db.read, *space, m.user_id).await? < Role::Manage.level() {
                return Err(DocError::Forbidden);
            }
            manages_one = true;
        }
        if !manages_one {
            return Err(DocError::Forbidden);
        }
    }
    let made = Invitation {
        kind: "join".into(),
        for_user: None,
        created_by: match by {
            Inviter::Person(m) => Some(m.user_id),
            Inviter::Quire => None,
        },
        space_roles: serde_json::to_string(
            &joins
                .spaces
                .iter()
                .map(|(s, r)| (*s, r.level()))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_else(|_| "[]".into()),
        group_ids: serde_json::to_string(&joins.groups).unwrap_or_else(|_| "[]".into()),
        expires_at: now_ms() + days * DAY_MS,
    };
    store(db, &made, "invitation.made").await
}

/// An admin's one-use link for `user` to choose a new password (a day long).
pub async fn make_reset(db: &Db, m: Manager<'_>, user: i64) -> Result<String, DocError> {
    if !m.is_admin {
        return Err(DocError::Forbidden);
    }
    let made = Invitation {
        kind: "reset".into(),
        for_user: Some(user),
        created_by: Some(m.user_id),
        space_roles: "[]".into(),
        group_ids: "[]".into(),
        expires_at: now_ms() + DAY_MS,
    };
    store(db, &made, "password.reset_link").await
}

async fn store(db: &Db, made: &Invitation, event: &str) -> Result<String, DocError> {
    let token = crate::random::random_token();
    let tx = db.begin_write().await?;
    stored::insert(&*tx, &token_hash(&token), made, now_ms()).await?;
    let detail = match made.for_user {
        Some(u) => format!("for user {u}"),
        None => format!("spaces {} groups {}", made.space_roles, made.group_ids),
    };
    crate::db::audit(&*tx, made.created_by, event, &detail).await?;
    tx.commit().await?;
    Ok(token)
}

/// Links not yet used nor expired (admins).
pub async fn pending(db: &Db, m: Manager<'_>) -> Result<Vec<Pending>, DocError> {
    if !m.is_admin {
        return Err(DocError::Forbidden);
    }
    Ok(stored::pending(&db.read, now_ms()).await?)
}
