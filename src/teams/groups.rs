//! Groups of people, made and filled by admins.

use super::{GroupRow, Manager, Member, check_name, taken};
use crate::db::Db;
use crate::db::teams::groups as stored;
use crate::documents::{DocError, now_ms};

fn admin(m: Manager<'_>) -> Result<(), DocError> {
    if m.is_admin {
        Ok(())
    } else {
        Err(DocError::Forbidden)
    }
}

/// A group single sign-on keeps is changed at the identity provider only.
fn unmanaged(g: &GroupRow) -> Result<(), DocError> {
    match &g.managed_by {
        None => Ok(()),
        Some(_) => Err(DocError::Invalid(format!(
            "The group {:?} is kept in step by single sign-on: change its members at the \
             identity provider.",
            g.name
        ))),
    }
}

/// Every group (anyone signed in may see the names, to share with them).
pub async fn list(db: &Db) -> Result<Vec<GroupRow>, DocError> {
    Ok(stored::list(&db.read).await?)
}

pub async fn find(db: &Db, id: i64) -> Result<GroupRow, DocError> {
    stored::find(&db.read, id).await?.ok_or(DocError::NotFound)
}

pub async fn create(db: &Db, m: Manager<'_>, name: &str) -> Result<i64, DocError> {
    admin(m)?;
    let name = check_name(name, "group")?;
    let tx = db.begin_write().await?;
    let id = stored::insert(&*tx, &name, now_ms())
        .await
        .map_err(|e| taken(e, "group", &name))?;
    crate::db::audit(&*tx, Some(m.user_id), "group.created", &name).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn delete(db: &Db, m: Manager<'_>, id: i64) -> Result<(), DocError> {
    admin(m)?;
    let g = find(db, id).await?;
    unmanaged(&g)?;
    let tx = db.begin_write().await?;
    stored::delete(&*tx, id).await?;
    crate::db::audit(&*tx, Some(m.user_id), "group.removed", &g.name).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn members(db: &Db, id: i64) -> Result<Vec<Member>, DocError> {
    Ok(stored::members(&db.read, id).await?)
}

/// Adds the person called `name` to group `id`.
pub async fn add(db: &Db, m: Manager<'_>, id: i64, name: &str) -> Result<(), DocError> {
    admin(m)?;
    let g = find(db, id).await?;
    unmanaged(&g)?;
    let name = crate::documents::access::looked_up(name)?;
    let tx = db.begin_write().await?;
    let user = crate::db::accounts::id_by_name(&*tx, name)
        .await?
        .ok_or_else(|| DocError::Invalid(format!("There is no person called {name:?}.")))?;
    stored::add_member(&*tx, id, user).await?;
    let detail = format!("{}: {name} added", g.name);
    crate::db::audit(&*tx, Some(m.user_id), "group.member", &detail).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn remove(db: &Db, m: Manager<'_>, id: i64, user: i64) -> Result<(), DocError> {
    admin(m)?;
    let g = find(db, id).await?;
    unmanaged(&g)?;
    let tx = db.begin_write().await?;
    if !stored::remove_member(&*tx, id, user).await? {
        return Err(DocError::NotFound);
    }
    let detail = format!("{}: person {user} removed", g.name);
    crate::db::audit(&*tx, Some(m.user_id), "group.member", &detail).await?;
    tx.commit().await?;
    Ok(())
}
