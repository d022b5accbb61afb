//! An administrator's changes to someone's account: a new name, administrator
//! rights given or taken, and deletion, whose documents go to a chosen person
//! (never left without an owner). Every change is in the audit log, and at
//! least one active administrator always remains.

use super::{AccountError, User, audit, check_username};
use crate::db::accounts as stored;
use crate::db::{Db, WriteTx};

/// Decided inside the write that takes `losing`'s administrator rights away
/// (demoted, disabled or deleted): refused when no other active administrator
/// would remain, or when `admin` is no longer one. The admins are read locked
/// (`stored::active_admins_locked`), so of two administrators demoting each
/// other at the same moment the second sees what the first did.
pub(super) async fn keep_an_admin(
    tx: &WriteTx,
    admin: &User,
    losing: i64,
) -> Result<(), AccountError> {
    let admins = stored::active_admins_locked(tx).await?;
    if !admins.iter().any(|&id| id != losing) {
        return Err(AccountError::Invalid(
            "This is the last active administrator; make someone else an administrator first."
                .into(),
        ));
    }
    if !admins.contains(&admin.id) {
        return Err(AccountError::Invalid(
            "Your administrator rights were taken or your account disabled meanwhile; \
             nothing was changed."
                .into(),
        ));
    }
    Ok(())
}

pub async fn rename(db: &Db, admin: &User, user_id: i64, new: &str) -> Result<(), AccountError> {
    rename_by(db, admin.id, user_id, new).await
}

/// A person's own new user name (one single sign-on gave a free variant of, say).
pub async fn rename_self(db: &Db, user: &User, new: &str) -> Result<(), AccountError> {
    rename_by(db, user.id, user.id, new).await
}

async fn rename_by(db: &Db, by: i64, user_id: i64, new: &str) -> Result<(), AccountError> {
    let name = check_username(new)?;
    let tx = db.begin_write().await?;
    let found = stored::rename(&*tx, user_id, &name)
        .await
        .map_err(|e| match &e {
            e if crate::db::is_unique_violation(e) => AccountError::Taken,
            _ => AccountError::Db(e),
        })?;
    if !found {
        return Err(AccountError::Invalid("There is no such account.".into()));
    }
    audit(
        &tx,
        Some(by),
        "user.renamed",
        &format!("user {user_id} is now {name}"),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Gives or takes administrator rights; nobody takes their own, and the last
/// active administrator keeps theirs.
pub async fn set_admin(
    db: &Db,
    admin: &User,
    user_id: i64,
    is_admin: bool,
) -> Result<(), AccountError> {
    if user_id == admin.id && !is_admin {
        return Err(AccountError::Invalid(
            "You cannot take your own administrator rights; another administrator can.".into(),
        ));
    }
    let tx = db.begin_write().await?;
    if !is_admin {
        keep_an_admin(&tx, admin, user_id).await?;
    }
    stored::set_admin(&*tx, user_id, is_admin).await?;
    let event = if is_admin {
        "user.promoted"
    } else {
        "user.demoted"
    };
    audit(&tx, Some(admin.id), event, &format!("user {user_id}")).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes an account. Its documents (the trash too) now belong to `heir`;
/// shares with it, its drafts, sessions and API tokens go with it.
pub async fn delete(db: &Db, admin: &User, user_id: i64, heir: i64) -> Result<(), AccountError> {
    if user_id == admin.id {
        return Err(AccountError::Invalid(
            "You cannot delete your own account.".into(),
        ));
    }
    if heir == user_id {
        return Err(AccountError::Invalid(
            "Choose someone else to receive the documents.".into(),
        ));
    }
    let tx = db.begin_write().await?;
    keep_an_admin(&tx, admin, user_id).await?;
    let names = stored::names(&*tx, [user_id, heir]).await?;
    let name_of = |id: i64| names.iter().find(|(i, _)| *i == id).map(|(_, n)| n.clone());
    let (Some(gone), Some(heir_name)) = (name_of(user_id), name_of(heir)) else {
        return Err(AccountError::Invalid(
            "There is no such account to delete or to receive the documents.".into(),
        ));
    };
    let moved = stored::delete_to_heir(&*tx, user_id, heir).await?;
    audit(
        &tx,
        Some(admin.id),
        "user.deleted",
        &format!("{gone} (user {user_id}); {moved} documents now belong to {heir_name}"),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
