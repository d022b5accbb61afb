//! Saving the user's text over a version that may be old: straight through when
//! nobody saved in between, merged against the base revision when someone did.

use super::{
    Access, Actor, DocError, DocId, Document, Merge, Revision, Valid, access, drafts, merge, place,
    prepared, revisions, save_over,
};
use crate::db::Db;
use crate::documents::prepared::Page;

/// What a save did.
#[derive(Debug)]
pub struct Saved {
    pub doc: Document,
    /// Set when someone else saved after the user's base version and their changes
    /// were merged with the user's: the version merged with.
    pub merged_with: Option<i64>,
}

/// A merge that needs the user: where both sides changed the same lines (or both
/// changed the title), with every text kept.
pub struct Conflicted {
    /// The version the user started from.
    pub base: i64,
    pub merge: Merge,
    /// The merged title, or `None` when both sides changed it differently.
    pub title: Option<String>,
}

/// For logs: the shape of the conflict, never the texts.
impl std::fmt::Debug for Conflicted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conflicted")
            .field("base", &self.base)
            .field("chunks", &self.merge.chunks.len())
            .field("title_merged", &self.title.is_some())
            .finish()
    }
}

/// Saves the user's text, based on version `base`. When someone saved in between,
/// their changes and the user's are merged line by line against revision `base`;
/// a clean merge is saved as the next version, overlapping changes come back as
/// `DocError::Conflict` and nothing is written. The user's draft of the document
/// goes in the same transaction as the save.
pub async fn save(
    db: &Db,
    id: &DocId,
    base: i64,
    doc: Valid,
    cap: usize,
    actor: Option<Actor<'_>>,
) -> Result<Saved, DocError> {
    let page = Page::render(doc.body(), Some(id.as_str()))?;
    if let Some(doc) = prepared::save_quickly(db, (id, base), &doc, &page, actor, true).await? {
        return Ok(Saved {
            doc,
            merged_with: None,
        });
    }
    let mut tx = db.begin_write().await?;
    let current = access::authorize(&*tx, id, actor, Access::Edit).await?;
    if current.deleted_at.is_some() {
        return Err(DocError::NotFound);
    }
    let saved = if current.version == base {
        let saved = save_over(&mut tx, &current, &doc, &page.packed, actor).await?;
        Saved {
            doc: saved,
            merged_with: None,
        }
    } else {
        let merged = merge_onto(&mut tx, &current, base, &doc, cap).await?;
        let merged_with = Some(current.version);
        let same_place = merged.folder().is_none_or(|f| f == current.folder)
            && merged.tags().is_none_or(|t| t == current.tags);
        if merged.title() == current.title && merged.body() == current.body && same_place {
            // Everything the user changed was already there: nothing new to record.
            Saved {
                doc: current,
                merged_with,
            }
        } else {
            let page = Page::render(merged.body(), Some(&current.id))?;
            let saved = save_over(&mut tx, &current, &merged, &page.packed, actor).await?;
            Saved {
                doc: saved,
                merged_with,
            }
        }
    };
    if let Some(actor) = actor {
        drafts::remove(&tx, saved.doc.seq, actor.user_id).await?;
    }
    tx.commit().await?;
    Ok(saved)
}

/// `current` with the name of who saved it, for the page that shows the user's
/// save beside it.
async fn with_saver(
    tx: &mut crate::db::WriteTx,
    current: &Document,
) -> Result<Box<Document>, DocError> {
    let mut doc = current.clone();
    doc.saved_by = revisions::find(&**tx, doc.seq, doc.version)
        .await?
        .and_then(|r| r.author);
    Ok(Box::new(doc))
}

/// The user's text merged with what was saved since `base`, or why it cannot be.
async fn merge_onto(
    tx: &mut crate::db::WriteTx,
    current: &Document,
    base: i64,
    mine: &Valid,
    cap: usize,
) -> Result<Valid, DocError> {
    if base > current.version {
        return Err(DocError::Stale {
            current: with_saver(tx, current).await?,
        });
    }
    let Some(base_rev) = revisions::find(&**tx, current.seq, base).await? else {
        return Err(DocError::Stale {
            current: with_saver(tx, current).await?,
        });
    };
    let base_text = revisions::text(&**tx, current.seq, &base_rev.text_hash).await?;
    let merge = merge::merge(&base_text, &current.body, mine.body());
    let title = merge::merge_title(&base_rev.title, &current.title, mine.title());
    match title {
        Some(title) if merge.is_clean() => {
            // Both sides may have added text: the merge must fit the cap too.
            let merged = Valid::parse(title, &merge.text_with_markers(""), cap)?;
            let folder = mine.folder().map(|folder| {
                // A folder the user moved wins; one the user left is the current one.
                if folder == base_rev.folder {
                    current.folder.clone()
                } else {
                    folder.to_owned()
                }
            });
            let tags = mine.tags().map(|tags| merge_tags(&base_rev, current, tags));
            Ok(merged.with_place(folder, tags))
        }
        title => Err(DocError::Conflict {
            current: with_saver(tx, current).await?,
            conflict: Box::new(Conflicted {
                base,
                merge,
                title: title.map(str::to_owned),
            }),
        }),
    }
}

/// Tags the user added or removed since `base`, added to or removed from the
/// current ones.
fn merge_tags(base: &Revision, current: &Document, mine: &[String]) -> Vec<String> {
    let base_tags = place::tags_from_json(&base.tags);
    let mut tags: Vec<String> = current
        .tags
        .iter()
        .filter(|t| mine.contains(t) || !base_tags.contains(t))
        .cloned()
        .collect();
    for tag in mine {
        if !base_tags.contains(tag) && !tags.contains(tag) {
            tags.push(tag.clone());
        }
    }
    tags
}
