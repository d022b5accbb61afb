//! Changing several documents at once, as chosen in the list: moving them to a
//! folder, adding tags, or moving them to the trash. Each is the same change one
//! document at a time would be (a versioned save that merges with anything saved
//! meanwhile, or the trash), with the same rights checked; one refused document
//! does not stop the others, and the answer says which were refused and why.

use super::{Actor, DocError, DocId, OnStale, Valid, place};
use crate::db::Db;

/// The most documents one change takes.
pub const MAX_CHOSEN: usize = 500;

pub enum Change {
    /// To this folder (`""` is the top level).
    Move(String),
    /// These tags added to the tags each has.
    Tag(Vec<String>),
    Trash,
}

impl Change {
    /// From the list's form: the action and what it names, checked as a save
    /// would check them.
    pub fn parse(action: &str, folder: &str, tags: &str) -> Result<Self, DocError> {
        match action {
            "move" => Ok(Self::Move(place::folder_path(folder)?)),
            "tag" => {
                let tags = place::tag_set(tags.split(','))?;
                if tags.is_empty() {
                    return Err(DocError::Invalid("Name at least one tag to add.".into()));
                }
                Ok(Self::Tag(tags))
            }
            "trash" => Ok(Self::Trash),
            _ => Err(DocError::Invalid(
                "Choose what to do with the documents.".into(),
            )),
        }
    }
}

/// What a change did: how many documents took it, and the title (or id) and
/// reason of each that did not.
#[derive(Default)]
pub struct Outcome {
    pub changed: usize,
    pub refused: Vec<(String, DocError)>,
}

pub async fn apply(
    db: &Db,
    chosen: &[DocId],
    change: &Change,
    cap: usize,
    actor: Actor<'_>,
) -> Outcome {
    let mut outcome = Outcome::default();
    for id in chosen.iter().take(MAX_CHOSEN) {
        match one(db, id, change, cap, actor).await {
            Ok(()) => outcome.changed += 1,
            Err((name, e)) => outcome
                .refused
                .push((name.unwrap_or_else(|| id.to_string()), e)),
        }
    }
    outcome
}

/// One document; on refusal its title when the reader may know it.
async fn one(
    db: &Db,
    id: &DocId,
    change: &Change,
    cap: usize,
    actor: Actor<'_>,
) -> Result<(), (Option<String>, DocError)> {
    let doc = super::get(db, id, actor.into())
        .await
        .map_err(|e| (None, e))?;
    let title = Some(doc.title.clone());
    let (folder, tags) = match change {
        Change::Trash => {
            return super::trash(db, id, actor.into())
                .await
                .map_err(|e| (title, e));
        }
        Change::Move(folder) if *folder == doc.folder => return Ok(()),
        Change::Move(folder) => (Some(folder.clone()), None),
        Change::Tag(added) => {
            let mut tags = doc.tags.clone();
            let before = tags.len();
            tags.extend(added.iter().filter(|t| !doc.tags.contains(t)).cloned());
            if tags.len() == before {
                return Ok(());
            }
            (None, Some(tags))
        }
    };
    let valid = Valid::parse(&doc.title, &doc.body, cap).map_err(|e| (title.clone(), e))?;
    let valid = valid.with_place(folder, tags);
    let merge = OnStale::Merge { cap };
    super::save(db, id, doc.version, valid, merge, actor.into())
        .await
        .map(|_| ())
        .map_err(|e| (title, e))
}
