//! Recent changes: revisions newest first, of documents the reader may read
//! now, optionally in one space and folder; and when the reader last looked.

use crate::db::documents::listing::InSpace;
use crate::db::documents::places::in_folder;
use crate::db::documents::visible;
use crate::db::{Conn, Error};

/// One saved revision as recent changes show it.
#[derive(Debug, Clone)]
pub struct ChangeRow {
    pub doc_id: String,
    /// The document's title now.
    pub title: String,
    pub rev: i64,
    /// The document's latest revision.
    pub version: i64,
    pub author: Option<String>,
    pub created_at: i64,
    pub added: i64,
    pub removed: i64,
    pub folder: String,
    pub space_name: Option<String>,
}
crate::db::from_row!(ChangeRow {
    doc_id,
    title,
    rev,
    version,
    author,
    created_at,
    added,
    removed,
    folder,
    space_name
});

/// Where recent changes look.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub space: Option<InSpace>,
    /// A tidied folder path: it and the folders under it.
    pub folder: Option<String>,
    /// Only this document (its id).
    pub doc: Option<String>,
    /// Only revisions saved before this time (the next page).
    pub before: Option<i64>,
}

/// At most `most` revisions in `scope` of live documents `viewer` may read,
/// newest first.
pub async fn list(
    ex: &impl Conn,
    viewer: i64,
    scope: &Scope,
    most: i64,
) -> Result<Vec<ChangeRow>, Error> {
    let mut sql = format!(
        "SELECT d.id AS doc_id, d.title, r.rev, d.version, r.author, r.created_at, r.added,
                r.removed, d.folder, sp.name AS space_name
         FROM revisions AS r JOIN documents AS d ON d.seq = r.doc_seq
         LEFT JOIN spaces AS sp ON sp.id = d.space_id
         WHERE d.deleted_at IS NULL AND r.created_at < $2 AND {}",
        visible("$1")
    );
    if let Some(space) = scope.space {
        sql.push_str(&format!(" AND {}", space.condition("$1")));
    }
    let mut next = 4;
    if scope.folder.is_some() {
        let (folder, under) = (format!("${next}"), format!("${}", next + 1));
        sql.push_str(&format!(" AND {}", in_folder("d.folder", &folder, &under)));
        next += 2;
    }
    if scope.doc.is_some() {
        sql.push_str(&format!(" AND d.id = ${next}"));
    }
    sql.push_str(" ORDER BY r.created_at DESC, r.doc_seq DESC, r.rev DESC LIMIT $3");
    let mut q = crate::db::query_as::<ChangeRow>(sql)
        .bind(viewer)
        .bind(scope.before.unwrap_or(i64::MAX))
        .bind(most);
    if let Some(folder) = &scope.folder {
        q = q.bind(folder.clone()).bind(format!("{folder}/"));
    }
    if let Some(doc) = &scope.doc {
        q = q.bind(doc.clone());
    }
    q.fetch_all(ex).await
}

/// Notes that `user` looked at recent changes at `now`; when they had looked
/// before (`None`: never).
pub async fn seen(ex: &impl Conn, user: i64, now: i64) -> Result<Option<i64>, Error> {
    let before: Option<Option<i64>> =
        crate::db::query_scalar("SELECT changes_seen_at FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(ex)
            .await?;
    crate::db::query("UPDATE users SET changes_seen_at = $2 WHERE id = $1")
        .bind(user)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(before.flatten())
}
