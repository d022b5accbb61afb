//! Lists of documents: a page of the live ones as sorted and narrowed, the
//! trash, and the folders and tags beside them. Each shows only what the actor
//! may read.

use super::{Caller, DocError, Listing, PAGE_SIZE, Summary, access, store};
use crate::db::Db;

/// One page of live documents the actor may read, as `listing` orders and
/// narrows them, and how many there are in all.
pub async fn list(
    db: &Db,
    page: i64,
    listing: &Listing,
    actor: Caller<'_>,
) -> Result<(Vec<Summary>, i64), DocError> {
    list_knowing(db, page, listing, actor, None).await
}

/// [`list`], counting the documents only when `total` is not known already.
pub async fn list_knowing(
    db: &Db,
    page: i64,
    listing: &Listing,
    actor: Caller<'_>,
    total: Option<i64>,
) -> Result<(Vec<Summary>, i64), DocError> {
    let viewer = access::viewer(actor);
    let rows = store::list_live(&db.read, page.max(1), PAGE_SIZE, viewer, listing);
    Ok(match total {
        Some(total) => (rows.await?, total),
        None => {
            futures_util::future::try_join(rows, store::count_live(&db.read, viewer, listing))
                .await?
        }
    })
}

/// The folders (each with the documents directly in it) and the most used
/// tags (with their counts) of the live documents the actor may read, in
/// `space` when one is given.
pub async fn places(
    db: &Db,
    actor: Caller<'_>,
    space: Option<super::InSpace>,
) -> Result<(Vec<(String, i64)>, Vec<(String, i64)>), DocError> {
    let viewer = access::viewer(actor);
    let folders = crate::db::documents::places::folders(&db.read, viewer, space);
    let tags = crate::db::documents::places::tags(&db.read, viewer, MAX_TAGS_LISTED, space);
    Ok(futures_util::future::try_join(folders, tags).await?)
}

/// Each folder directly holding live documents the actor may read, with how many.
pub async fn folders(db: &Db, actor: Caller<'_>) -> Result<Vec<(String, i64)>, DocError> {
    Ok(crate::db::documents::places::folders(&db.read, access::viewer(actor), None).await?)
}

/// The most used tags of live documents the actor may read, with their counts.
pub async fn tags(db: &Db, actor: Caller<'_>) -> Result<Vec<(String, i64)>, DocError> {
    let viewer = access::viewer(actor);
    Ok(crate::db::documents::places::tags(&db.read, viewer, MAX_TAGS_LISTED, None).await?)
}

/// How many tags the list page offers, the most used first.
pub const MAX_TAGS_LISTED: i64 = 60;

/// Whether a page of a list of `total` has a page after it.
pub fn more_after(page: i64, total: i64) -> bool {
    page.max(1).saturating_mul(PAGE_SIZE) < total
}

pub async fn list_trash(
    db: &Db,
    page: i64,
    actor: Caller<'_>,
) -> Result<(Vec<Summary>, bool), DocError> {
    let viewer = access::viewer(actor);
    let mut rows = store::list_trash(&db.read, page.max(1), PAGE_SIZE, viewer).await?;
    let more = rows.len() as i64 > PAGE_SIZE;
    rows.truncate(PAGE_SIZE as usize);
    Ok((rows, more))
}
