//! An administrator's changes to someone's account: a new name, administrator
//! rights given or taken, and deletion, whose documents go to a chosen person
//! (never left without an owner). Every change is in the audit log.

use super::{AccountError, User, audit, check_username};
use crate::db::Db;
use crate::db::accounts as stored;

pub async fn rename(db: &Db, admin: &User, user_id: i64, new: &str) -> Result<(), AccountError> {
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
        Some(admin.id),
        "user.renamed",
        &format!("user {user_id} is now {name}"),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Gives or takes administrator rights; nobody takes their own (so one
/// administrator always remains).
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
