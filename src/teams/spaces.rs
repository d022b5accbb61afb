//! Spaces: made and removed by admins, named and peopled by their managers.

use super::{Manager, Member, Role, SpaceRow, check_name, taken};
use crate::db::Db;
use crate::db::teams::groups as stored_groups;
use crate::db::teams::spaces::{self as stored, Who};
use crate::documents::{DocError, now_ms};

/// The spaces `m` is a member of (an admin: every space), by name.
pub async fn list(db: &Db, m: Manager<'_>) -> Result<Vec<SpaceRow>, DocError> {
    Ok(stored::list(&db.read, m.user_id, m.is_admin).await?)
}

/// A space by name (case aside): its id.
pub async fn id_by_name(db: &Db, name: &str) -> Result<Option<i64>, crate::db::Error> {
    stored::id_by_name(&db.read, name.trim()).await
}

/// The spaces `user` may read in: (id, name), by name.
pub async fn names(db: &Db, user: i64) -> Result<Vec<(i64, String)>, DocError> {
    Ok(stored::names(&db.read, user).await?)
}

/// Every space's name: (id, name). Only to name the space of a document
/// the viewer may read (the list's rows), never to list.
pub async fn every_name(db: &Db) -> Result<Vec<(i64, String)>, DocError> {
    Ok(stored::all_names(&db.read).await?)
}

/// The spaces `user` may write in (edit or manage): (id, name), by name.
pub async fn writable(db: &Db, user: i64) -> Result<Vec<(i64, String)>, DocError> {
    Ok(stored::names_with(&db.read, user, Role::Edit.level()).await?)
}

/// A space `m` is a member of, or any space for an admin; others are missing.
pub async fn find(db: &Db, m: Manager<'_>, id: i64) -> Result<SpaceRow, DocError> {
    match stored::find(&db.read, m.user_id, id).await? {
        Some(s) if s.role > 0 || m.is_admin => Ok(s),
        _ => Err(DocError::NotFound),
    }
}

/// Whether `m` may change space `s`: its managers and admins.
pub fn may_manage(m: Manager<'_>, s: &SpaceRow) -> bool {
    m.is_admin || s.role >= Role::Manage.level()
}

async fn managed(db: &Db, m: Manager<'_>, id: i64) -> Result<SpaceRow, DocError> {
    let s = find(db, m, id).await?;
    if may_manage(m, &s) {
        Ok(s)
    } else {
        Err(DocError::Forbidden)
    }
}

/// A new space (admins only); its maker manages it. `default_role`: the role
/// every new account is given there, if any.
pub async fn create(
    db: &Db,
    m: Manager<'_>,
    name: &str,
    default_role: Option<Role>,
) -> Result<i64, DocError> {
    if !m.is_admin {
        return Err(DocError::Forbidden);
    }
    let name = check_name(name, "space")?;
    let tx = db.begin_write().await?;
    let id = stored::insert(&*tx, &name, default_role.map(Role::level), now_ms())
        .await
        .map_err(|e| taken(e, "space", &name))?;
    stored::put_member(&*tx, id, Who::Person(m.user_id), Role::Manage.level()).await?;
    crate::db::audit(&*tx, Some(m.user_id), "space.created", &name).await?;
    tx.commit().await?;
    Ok(id)
}

/// Renames a space and sets the role new accounts get there.
pub async fn update(
    db: &Db,
    m: Manager<'_>,
    id: i64,
    name: &str,
    default_role: Option<Role>,
) -> Result<(), DocError> {
    let before = managed(db, m, id).await?;
    let name = check_name(name, "space")?;
    let tx = db.begin_write().await?;
    stored::update(&*tx, id, &name, default_role.map(Role::level))
        .await
        .map_err(|e| taken(e, "space", &name))?;
    let detail = format!(
        "{} -> {name} (new accounts: {})",
        before.name,
        default_role.map_or("none", Role::word)
    );
    crate::db::audit(&*tx, Some(m.user_id), "space.changed", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// Keeps commenting in a space to those who may edit (`editors_only`), or
/// opens it to everyone who may read.
pub async fn set_comment_rule(
    db: &Db,
    m: Manager<'_>,
    id: i64,
    editors_only: bool,
) -> Result<(), DocError> {
    let s = managed(db, m, id).await?;
    let tx = db.begin_write().await?;
    crate::db::comments::set_space_rule(&*tx, id, if editors_only { 2 } else { 1 }).await?;
    let who = if editors_only { "editors" } else { "readers" };
    let detail = format!("{}: comments by {who}", s.name);
    crate::db::audit(&*tx, Some(m.user_id), "space.changed", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// Makes a space review changes (`on`): only its managers and each
/// document's owner save; everyone else who could edit suggests edits, which
/// they accept. Or lets everyone who may edit save again.
pub async fn set_review(db: &Db, m: Manager<'_>, id: i64, on: bool) -> Result<(), DocError> {
    let s = managed(db, m, id).await?;
    let tx = db.begin_write().await?;
    crate::db::suggestions::set_space_review(&*tx, id, on).await?;
    let what = if on { "reviewed" } else { "saved directly" };
    let detail = format!("{}: changes {what}", s.name);
    crate::db::audit(&*tx, Some(m.user_id), "space.changed", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// Removes a space (admins only): its documents go back to their owners'
/// personal spaces, so nobody but their owners (and named shares) keeps them.
pub async fn delete(db: &Db, m: Manager<'_>, id: i64) -> Result<(), DocError> {
    let s = find(db, m, id).await?;
    if !m.is_admin {
        return Err(DocError::Forbidden);
    }
    let tx = db.begin_write().await?;
    stored::delete(&*tx, id).await?;
    let detail = format!(
        "{} ({} documents back to their owners)",
        s.name, s.documents
    );
    crate::db::audit(&*tx, Some(m.user_id), "space.removed", &detail).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn members(db: &Db, m: Manager<'_>, id: i64) -> Result<Vec<Member>, DocError> {
    find(db, m, id).await?;
    Ok(stored::members(&db.read, id).await?)
}

/// Makes a person or a group (by name; a person first) a member with `role`,
/// or changes their role.
pub async fn put_member(
    db: &Db,
    m: Manager<'_>,
    id: i64,
    name: &str,
    role: Role,
) -> Result<(), DocError> {
    let s = managed(db, m, id).await?;
    let name = crate::documents::access::looked_up(name)?;
    let tx = db.begin_write().await?;
    let who = match crate::db::accounts::id_by_name(&*tx, name).await? {
        Some(user) => Who::Person(user),
        None => match stored_groups::id_by_name(&*tx, name).await? {
            Some(group) => Who::Group(group),
            None => {
                return Err(DocError::Invalid(format!(
                    "There is no person or group called {name:?}."
                )));
            }
        },
    };
    if stored::put_member(&*tx, id, who, role.level()).await? {
        crate::db::notices::queue::joined(&*tx, id, who, m.user_id, crate::clock::now_ms()).await?;
    }
    let detail = format!("{}: {name} {}", s.name, role.word());
    crate::db::audit(&*tx, Some(m.user_id), "space.member", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// Removes membership row `member` from the space.
pub async fn remove_member(db: &Db, m: Manager<'_>, id: i64, member: i64) -> Result<(), DocError> {
    let s = managed(db, m, id).await?;
    let tx = db.begin_write().await?;
    if !stored::remove_member(&*tx, id, member).await? {
        return Err(DocError::NotFound);
    }
    let detail = format!("{}: member {member} removed", s.name);
    crate::db::audit(&*tx, Some(m.user_id), "space.member", &detail).await?;
    tx.commit().await?;
    Ok(())
}
