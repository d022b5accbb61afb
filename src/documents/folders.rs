//! Renaming a folder: every document in it and in the folders under it that
//! the user may edit moves to the new path, each as a new version (the history
//! shows the move; the text is unchanged). A folder exists while a document is
//! in it, so an emptied folder is gone with nothing to delete.

use super::{Caller, DocError, access, now_ms, place};
use crate::db::Db;
use crate::db::documents::places;

/// What a rename did.
#[derive(Debug, PartialEq, Eq)]
pub struct Renamed {
    /// The new path, tidied.
    pub to: String,
    pub moved: usize,
}

/// Moves what the actor may edit in folder `from` (and under it) to `to`: in
/// one transaction, all of it or none.
pub async fn rename_folder(
    db: &Db,
    from: &str,
    to: &str,
    actor: Caller<'_>,
) -> Result<Renamed, DocError> {
    let from = place::folder_path(from)?;
    let to = place::folder_path(to)?;
    if from.is_empty() {
        return Err(DocError::Invalid(
            "Name the folder to rename; the top level cannot be renamed.".into(),
        ));
    }
    let under = format!("{from}/");
    let tx = db.begin_write().await?;
    let rows = places::editable_in(&*tx, access::viewer(actor), (&from, &under)).await?;
    if rows.is_empty() {
        return Err(DocError::NotFound);
    }
    let now = now_ms();
    let author = actor.person().map(|a| a.name);
    for (seq, version, folder) in &rows {
        let rest = &folder[from.len()..];
        let moved = match (to.is_empty(), rest.strip_prefix('/')) {
            (true, Some(rest)) => rest.to_owned(),
            _ => format!("{to}{rest}"),
        };
        let moved = place::folder_path(&moved)?;
        places::move_to(&*tx, (*seq, *version), &moved, (author, now)).await?;
    }
    tx.commit().await?;
    Ok(Renamed {
        to,
        moved: rows.len(),
    })
}
