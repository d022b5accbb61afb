//! Managing accounts: the admin's user list, disabling, password resets and
//! changes (which end the account's other sessions), and the audit log.

use super::{AccountError, User, audit, password};
use crate::db::Db;
use crate::documents::now_ms;

use crate::db::accounts as stored;
pub use crate::db::accounts::{AuditRow, UserRow};

pub async fn list_users(db: &Db) -> Result<Vec<UserRow>, crate::db::Error> {
    stored::list(&db.read).await
}

async fn hash(pw: &str) -> Result<String, AccountError> {
    password::check_new(pw).map_err(AccountError::Invalid)?;
    let pw = pw.to_owned();
    tokio::task::spawn_blocking(move || password::hash(&pw))
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))?
        .map_err(|e| AccountError::Hash(e.to_string()))
}

/// Sets a new password and ends every session of the account except `keep`
/// (the token hash of the session making the change, if it is the user's own).
async fn set_password(
    db: &Db,
    user_id: i64,
    new: &str,
    keep: Option<&[u8]>,
    by: i64,
    event: &str,
) -> Result<(), AccountError> {
    let hash = hash(new).await?;
    let tx = db.begin_write().await?;
    stored::set_password(&*tx, user_id, &hash, keep).await?;
    audit(&tx, Some(by), event, &format!("user {user_id}")).await?;
    tx.commit().await?;
    Ok(())
}

/// The user's own change: the current password must be right.
pub async fn change_password(
    db: &Db,
    user: &User,
    current: &str,
    new: &str,
    session_token: &str,
) -> Result<(), AccountError> {
    let stored = stored::password_hash(&db.read, user.id).await?;
    let current = current.to_owned();
    let ok = tokio::task::spawn_blocking(move || password::verify(&current, &stored))
        .await
        .unwrap_or(false);
    if !ok {
        return Err(AccountError::Invalid(
            "The current password is wrong.".into(),
        ));
    }
    let keep = super::sessions::token_hash(session_token);
    set_password(db, user.id, new, Some(&keep), user.id, "password.changed").await
}

/// An admin sets a new password for someone; all their sessions end.
pub async fn reset_password(
    db: &Db,
    admin: &User,
    user_id: i64,
    new: &str,
) -> Result<(), AccountError> {
    set_password(db, user_id, new, None, admin.id, "password.reset").await
}

/// Disabling signs the account out everywhere and refuses its tokens; the last
/// active administrator stays enabled.
pub async fn set_disabled(
    db: &Db,
    admin: &User,
    user_id: i64,
    disabled: bool,
) -> Result<(), AccountError> {
    if user_id == admin.id && disabled {
        return Err(AccountError::Invalid(
            "You cannot disable your own account.".into(),
        ));
    }
    let tx = db.begin_write().await?;
    if disabled {
        super::people::keep_an_admin(&tx, admin, user_id).await?;
    }
    stored::set_disabled(&*tx, user_id, disabled.then(now_ms)).await?;
    let event = if disabled {
        "user.disabled"
    } else {
        "user.enabled"
    };
    audit(&tx, Some(admin.id), event, &format!("user {user_id}")).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn audit_log(db: &Db, limit: i64) -> Result<Vec<AuditRow>, crate::db::Error> {
    stored::audit_log(&db.read, limit).await
}
