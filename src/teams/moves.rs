//! Moving a document, or a whole folder, to another space, which changes who
//! may read it: the plan names who gains and who loses access before anything
//! moves, and the move is in the audit log.

use std::collections::BTreeSet;

use super::Role;
use crate::db::Db;
use crate::db::WriteTx;
use crate::db::documents::places;
use crate::db::teams::spaces as stored;
use crate::documents::{Access, Actor, DocError, DocId, Document, InSpace, access, place};

/// What a move does: where to, and who gains or loses reading it.
#[derive(Debug, Clone)]
pub struct MovePlan {
    pub to: InSpace,
    pub to_name: String,
    pub gains: Vec<String>,
    pub loses: Vec<String>,
}

/// What moving a folder does: how many of its documents move, how many the
/// mover may not move (they stay), and who gains or loses reading any of them.
#[derive(Debug, Clone)]
pub struct FolderMovePlan {
    pub folder: String,
    pub to_name: String,
    pub moved: usize,
    pub left: usize,
    pub gains: Vec<String>,
    pub loses: Vec<String>,
}

/// Plans a move of document `id` to `to` and, with `apply`, makes it (in the
/// audit log). Its owner, or a manager of the space it is in, may move it out;
/// into a space they may edit in, or (its owner) into their personal space.
pub async fn move_document(
    db: &Db,
    id: &DocId,
    actor: Actor<'_>,
    to: InSpace,
    apply: bool,
) -> Result<MovePlan, DocError> {
    let tx = db.begin_write().await?;
    let doc = access::authorize(&*tx, id, actor.into(), Access::Read).await?;
    let (target, to_name) = destination(&tx, &doc, actor, to).await?;
    let (gains, loses) = move_one(&tx, doc.seq, target).await?;
    crate::documents::events::happened(&*tx, doc.seq, "document.moved", Some(actor.user_id))
        .await?;
    let plan = MovePlan {
        to,
        to_name,
        gains,
        loses,
    };
    if apply {
        let detail = format!(
            "{} moved to {} (gain: {}; lose: {})",
            doc.id,
            plan.to_name,
            plan.gains.join(", "),
            plan.loses.join(", ")
        );
        crate::db::audit(&*tx, Some(actor.user_id), "document.moved", &detail).await?;
        tx.commit().await?;
    }
    Ok(plan)
}

/// Plans a move of every document in `folder` (and the folders under it)
/// that the actor may move, in the space `from` when given, to `to`; with
/// `apply`, makes it, all in one transaction, and notes it in the audit log.
/// A document the actor may read but not move stays where it is (counted).
pub async fn move_folder(
    db: &Db,
    folder: &str,
    from: Option<InSpace>,
    actor: Actor<'_>,
    to: InSpace,
    apply: bool,
) -> Result<FolderMovePlan, DocError> {
    let folder = place::folder_path(folder)?;
    if folder.is_empty() {
        return Err(DocError::Invalid("Name the folder to move.".into()));
    }
    let under = format!("{folder}/");
    let tx = db.begin_write().await?;
    let ids = places::readable_in(&*tx, Some(actor.user_id), (&folder, &under)).await?;
    let mut plan = FolderMovePlan {
        folder,
        to_name: String::new(),
        moved: 0,
        left: 0,
        gains: Vec::new(),
        loses: Vec::new(),
    };
    let (mut gains, mut loses) = (BTreeSet::new(), BTreeSet::new());
    let mut found = false;
    for id in ids.iter().filter_map(|id| DocId::parse(id)) {
        let doc = access::authorize(&*tx, &id, actor.into(), Access::Read).await?;
        if from.is_some_and(|from| !in_space(&doc, from, actor)) {
            continue;
        }
        found = true;
        if in_space(&doc, to, actor) {
            continue;
        }
        if to == InSpace::Personal && doc.owner_id != Some(actor.user_id) {
            plan.left += 1;
            continue;
        }
        match destination(&tx, &doc, actor, to).await {
            Ok((target, name)) => {
                let (g, l) = move_one(&tx, doc.seq, target).await?;
                let moved = "document.moved";
                crate::documents::events::happened(&*tx, doc.seq, moved, Some(actor.user_id))
                    .await?;
                gains.extend(g);
                loses.extend(l);
                plan.to_name = name;
                plan.moved += 1;
            }
            Err(DocError::Forbidden) => plan.left += 1,
            Err(e) => return Err(e),
        }
    }
    if !found {
        return Err(DocError::NotFound);
    }
    // Someone who loses one document and gains another is in both lists.
    (plan.gains, plan.loses) = (gains.into_iter().collect(), loses.into_iter().collect());
    if apply && plan.moved > 0 {
        let detail = format!(
            "folder {} moved to {}: {} documents (gain: {}; lose: {})",
            plan.folder,
            plan.to_name,
            plan.moved,
            plan.gains.join(", "),
            plan.loses.join(", ")
        );
        crate::db::audit(&*tx, Some(actor.user_id), "folder.moved", &detail).await?;
        tx.commit().await?;
    }
    Ok(plan)
}

/// Whether `doc` is in `space` as `actor` sees it (personal: their own).
fn in_space(doc: &Document, space: InSpace, actor: Actor<'_>) -> bool {
    match space {
        InSpace::Personal => doc.space_id.is_none() && doc.owner_id == Some(actor.user_id),
        InSpace::Id(n) => doc.space_id == Some(n),
    }
}

/// Where `actor` may move `doc` when they ask for `to`: the space (none: the
/// owner's personal space) and its name. Refused when they may not move it
/// out of its space (`Forbidden`); into a personal space not theirs, or a
/// space they may not write in, is an error to show.
async fn destination(
    tx: &WriteTx,
    doc: &Document,
    actor: Actor<'_>,
    to: InSpace,
) -> Result<(Option<i64>, String), DocError> {
    let owner = doc.owner_id == Some(actor.user_id);
    let may_move_out = owner
        || match doc.space_id {
            Some(s) => stored::role(&**tx, s, actor.user_id).await? >= Role::Manage.level(),
            None => false,
        };
    if !may_move_out {
        return Err(DocError::Forbidden);
    }
    match to {
        InSpace::Personal if owner => Ok((None, "your personal space".to_owned())),
        InSpace::Personal => Err(DocError::Invalid(
            "Only its owner can move a document into their personal space.".into(),
        )),
        InSpace::Id(n) => match stored::find(&**tx, actor.user_id, n).await? {
            Some(s) if s.role >= Role::Edit.level() => Ok((Some(n), s.name)),
            Some(s) if s.role > 0 => Err(DocError::Invalid(format!(
                "You may read {} but not write in it.",
                s.name
            ))),
            _ => Err(DocError::Invalid("There is no such space.".into())),
        },
    }
}

/// Moves document `seq` to `target`: who gains and who loses reading it.
async fn move_one(
    tx: &WriteTx,
    seq: i64,
    target: Option<i64>,
) -> Result<(Vec<String>, Vec<String>), DocError> {
    let before = stored::readers(&**tx, seq).await?;
    stored::move_document(&**tx, seq, target).await?;
    let after = stored::readers(&**tx, seq).await?;
    let gains = after.iter().filter(|n| !before.contains(n)).cloned();
    let loses = before.iter().filter(|n| !after.contains(n)).cloned();
    Ok((gains.collect(), loses.collect()))
}
