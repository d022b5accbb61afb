//! Taking up a link: joining with a name and password of one's own, or setting
//! a new password. Each link works once (claimed in the same transaction that
//! makes the account or sets the password) and not after it expires.

use super::{AccountError, User, audit, check_username, password};
use crate::db::Db;
use crate::db::accounts as stored;
use crate::db::teams::invitations::{self as links, Invitation};
use crate::db::teams::{groups, spaces};
use crate::documents::now_ms;

const GONE: &str = "This link has been used or has expired. Ask for a new one.";

fn key(token: &str) -> Option<Vec<u8>> {
    (token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| crate::teams::invitations::token_hash(token))
}

/// The open link of `kind` with this token, if there is one.
pub async fn open(db: &Db, token: &str, kind: &str) -> Result<Option<Invitation>, AccountError> {
    let Some(key) = key(token) else {
        return Ok(None);
    };
    Ok(links::find_open(&db.read, &key, kind, now_ms()).await?)
}

async fn hashed(pw: &str) -> Result<String, AccountError> {
    password::check_new(pw).map_err(AccountError::Invalid)?;
    let pw = pw.to_owned();
    tokio::task::spawn_blocking(move || password::hash(&pw))
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))?
        .map_err(|e| AccountError::Hash(e.to_string()))
}

/// A new account from a join link: the person's own name and password; they
/// join the spaces every new account joins and those the link names.
pub async fn join(db: &Db, token: &str, username: &str, pw: &str) -> Result<User, AccountError> {
    let key = key(token).ok_or_else(|| AccountError::Invalid(GONE.into()))?;
    let username = check_username(username)?;
    let hash = hashed(pw).await?;
    let now = now_ms();
    let tx = db.begin_write().await?;
    let link = links::find_open(&*tx, &key, "join", now)
        .await?
        .ok_or_else(|| AccountError::Invalid(GONE.into()))?;
    let user = stored::insert(&*tx, &username, &hash, false, now)
        .await
        .map_err(|e| match &e {
            e if crate::db::is_unique_violation(e) => AccountError::Taken,
            _ => AccountError::Db(e),
        })?;
    let space_roles: Vec<(i64, i64)> = serde_json::from_str(&link.space_roles).unwrap_or_default();
    for (space, role) in space_roles {
        if spaces::role(&*tx, space, user.id).await? < role {
            spaces::put_member(&*tx, space, spaces::Who::Person(user.id), role).await?;
        }
    }
    let group_ids: Vec<i64> = serde_json::from_str(&link.group_ids).unwrap_or_default();
    for group in group_ids {
        if groups::find(&*tx, group).await?.is_some() {
            groups::add_member(&*tx, group, user.id).await?;
        }
    }
    if !links::claim(&*tx, &key, now, user.id).await? {
        return Err(AccountError::Invalid(GONE.into()));
    }
    audit(
        &tx,
        Some(user.id),
        "user.joined",
        &format!("{username} by invitation"),
    )
    .await?;
    tx.commit().await?;
    Ok(user)
}

/// A new password from a reset link; every session of the account ends.
pub async fn reset(db: &Db, token: &str, pw: &str) -> Result<(), AccountError> {
    let key = key(token).ok_or_else(|| AccountError::Invalid(GONE.into()))?;
    let hash = hashed(pw).await?;
    let now = now_ms();
    let tx = db.begin_write().await?;
    let link = links::find_open(&*tx, &key, "reset", now)
        .await?
        .ok_or_else(|| AccountError::Invalid(GONE.into()))?;
    let user = link
        .for_user
        .ok_or_else(|| AccountError::Invalid(GONE.into()))?;
    stored::set_password(&*tx, user, &hash, None).await?;
    if !links::claim(&*tx, &key, now, user).await? {
        return Err(AccountError::Invalid(GONE.into()));
    }
    audit(
        &tx,
        Some(user),
        "password.reset_by_link",
        &format!("user {user}"),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
