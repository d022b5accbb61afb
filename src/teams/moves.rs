//! Moving a document to another space, which changes who may read it: the
//! plan names who gains and who loses access before anything moves.

use super::Role;
use crate::db::Db;
use crate::db::teams::spaces as stored;
use crate::documents::{Access, Actor, DocError, DocId, InSpace, access};

/// What a move does: where to, and who gains or loses reading it.
#[derive(Debug, Clone)]
pub struct MovePlan {
    pub to: InSpace,
    pub to_name: String,
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
    let owner = doc.owner_id == Some(actor.user_id);
    let may_move_out = owner
        || match doc.space_id {
            Some(s) => stored::role(&*tx, s, actor.user_id).await? >= Role::Manage.level(),
            None => false,
        };
    if !may_move_out {
        return Err(DocError::Forbidden);
    }
    let (target, to_name) = match to {
        InSpace::Personal if owner => (None, "your personal space".to_owned()),
        InSpace::Personal => {
            return Err(DocError::Invalid(
                "Only its owner can move a document into their personal space.".into(),
            ));
        }
        InSpace::Id(n) => {
            let space = stored::find(&*tx, actor.user_id, n).await?;
            match space {
                Some(s) if s.role >= Role::Edit.level() => (Some(n), s.name),
                Some(s) if s.role > 0 => {
                    return Err(DocError::Invalid(format!(
                        "You may read {} but not write in it.",
                        s.name
                    )));
                }
                _ => return Err(DocError::Invalid("There is no such space.".into())),
            }
        }
    };
    let before = stored::readers(&*tx, doc.seq).await?;
    stored::move_document(&*tx, doc.seq, target).await?;
    let after = stored::readers(&*tx, doc.seq).await?;
    let plan = MovePlan {
        to,
        to_name,
        gains: after
            .iter()
            .filter(|n| !before.contains(n))
            .cloned()
            .collect(),
        loses: before
            .iter()
            .filter(|n| !after.contains(n))
            .cloned()
            .collect(),
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
