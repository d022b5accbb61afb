//! A stale save: someone saved after the user's base version. `OnStale` says
//! what to do: refuse it, or merge the user's changes with theirs, line by line
//! against the base revision (`documents::merge`), the title, folder and tags
//! beside the text.

use super::super::{DocError, Document, Merge, Revision, Valid, merge, place, revisions};
use crate::db::{Conn, WriteTx};

/// What a save does when someone else saved after its base version.
#[derive(Clone, Copy, Debug)]
pub enum OnStale {
    /// Merge their changes and the user's: a clean merge (which must fit in
    /// `cap` bytes) is saved, overlapping changes are `DocError::Conflict` and
    /// nothing is written. A page's save (the editor, a ticked task, several
    /// documents at once): the user's draft of the document goes with it.
    Merge { cap: usize },
    /// Merge as `Merge` does, and leave the actor's draft alone: the save is
    /// not of their editor (accepting someone's suggested edit).
    MergeOnly { cap: usize },
    /// Write nothing: `DocError::Stale` with the current document. The API's
    /// save, which leaves the editor's draft alone.
    Refuse,
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

impl OnStale {
    /// Whether the actor's draft of the document goes in the save's transaction.
    pub(super) fn drops_draft(self) -> bool {
        matches!(self, Self::Merge { .. })
    }

    /// The user's text `mine`, based on `base`, made to go onto `current`, or
    /// why it cannot be.
    pub(super) async fn onto(
        self,
        tx: &mut WriteTx,
        current: &Document,
        base: i64,
        mine: &Valid,
    ) -> Result<Valid, DocError> {
        match self {
            Self::Refuse => Err(DocError::Stale {
                current: Box::new(current.clone()),
            }),
            Self::Merge { cap } | Self::MergeOnly { cap } => {
                merge_onto(&**tx, current, base, mine, cap).await
            }
        }
    }
}

/// The user's text merged with what was saved since `base`, or why it cannot
/// be; reads only (a save runs it in its write transaction).
pub(super) async fn merge_onto(
    ex: &impl Conn,
    current: &Document,
    base: i64,
    mine: &Valid,
    cap: usize,
) -> Result<Valid, DocError> {
    if base > current.version {
        return Err(DocError::Stale {
            current: with_saver(ex, current).await?,
        });
    }
    let Some(base_rev) = revisions::find(ex, current.seq, base).await? else {
        return Err(DocError::Stale {
            current: with_saver(ex, current).await?,
        });
    };
    let base_text = revisions::text(ex, current.seq, &base_rev.text_hash).await?;
    let merge = merge::merge(&base_text, &current.body, mine.body());
    let title = merge::merge_title(&base_rev.title, &current.title, mine.title());
    match title {
        Some(title) if merge.is_clean() => {
            // Both sides may have added text: the merge must fit the cap too.
            let merged = mine.with_text(title, &merge.text_with_markers(""), cap)?;
            // A folder the user moved wins; one the user left is the current one.
            let folder = mine.folder().map(|folder| {
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
            current: with_saver(ex, current).await?,
            conflict: Box::new(Conflicted {
                base,
                merge,
                title: title.map(str::to_owned),
            }),
        }),
    }
}

/// `current` with the name of who saved it, for the page that shows the user's
/// save beside it.
async fn with_saver(ex: &impl Conn, current: &Document) -> Result<Box<Document>, DocError> {
    let mut doc = current.clone();
    doc.saved_by = revisions::find(ex, doc.seq, doc.version)
        .await?
        .and_then(|r| r.author);
    Ok(Box::new(doc))
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
