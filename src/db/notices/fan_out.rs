//! The statements the notifier needs to turn a queued change into notices:
//! what a revision was, who watches it, who may read it now, and the notices
//! themselves. Which change reaches whom is the domain's (`crate::notices`).

use std::sync::LazyLock;

use crate::db::documents::{Access, level};
use crate::db::{Conn, Error};

/// A document that changed, as it is now.
#[derive(Debug, Clone)]
pub struct DocFacts {
    pub space_id: Option<i64>,
    pub folder: String,
    pub deleted: bool,
    /// The text holds an `@` (it may mention someone).
    pub has_at: bool,
}
crate::db::from_row!(DocFacts {
    space_id,
    folder,
    deleted,
    has_at
});

pub async fn document(ex: &impl Conn, doc_seq: i64) -> Result<Option<DocFacts>, Error> {
    crate::db::query_as::<DocFacts>(
        "SELECT d.space_id, d.folder,
                CAST(CASE WHEN d.deleted_at IS NULL THEN 0 ELSE 1 END AS BIGINT) AS deleted,
                CAST(CASE WHEN d.body LIKE '%@%' THEN 1 ELSE 0 END AS BIGINT) AS has_at
         FROM documents AS d WHERE d.seq = $1",
    )
    .bind(doc_seq)
    .fetch_optional(ex)
    .await
}

/// One revision's author: their name as saved, and their account (if it still
/// has that name and is enabled) with whether they watch what they edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub rev: i64,
    pub author: Option<String>,
    pub author_id: Option<i64>,
    pub watch_own: bool,
}
crate::db::from_row!(Saved {
    rev,
    author,
    author_id,
    watch_own
});

/// Who saved revisions `first` to `last` of `doc_seq`, in order.
pub async fn authors(
    ex: &impl Conn,
    doc_seq: i64,
    (first, last): (i64, i64),
) -> Result<Vec<Saved>, Error> {
    crate::db::query_as::<Saved>(
        "SELECT r.rev, r.author, u.id AS author_id,
                CAST(coalesce(u.watch_own, 0) AS BIGINT) AS watch_own
         FROM revisions AS r
         LEFT JOIN users AS u ON u.username = r.author AND u.disabled_at IS NULL
         WHERE r.doc_seq = $1 AND r.rev BETWEEN $2 AND $3 ORDER BY r.rev",
    )
    .bind(doc_seq)
    .bind(first)
    .bind(last)
    .fetch_all(ex)
    .await
}

/// Tells everyone who watches document `doc_seq` (or its folder or space) and
/// may read it now, except `author_id`, of `saves` changes of `kind` by
/// `author` (saves up to revision `last`, or comments up to comment `last`),
/// in one statement: an unread notice gathers them. How many notices it made
/// or gathered into.
pub async fn tell_watchers(
    ex: &impl Conn,
    kind: &str,
    doc_seq: i64,
    (author, author_id): (Option<&str>, Option<i64>),
    (first, last, saves): (i64, i64, i64),
    now: i64,
) -> Result<u64, Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO notices
                 (user_id, kind, doc_seq, actor, first_rev, last_rev, count, created_at, updated_at)
             SELECT w.user_id, $8, $1, $2, $4, $5, $6, $7, $7
             FROM ({WATCHING}) AS w
             JOIN users AS u ON u.id = w.user_id AND u.disabled_at IS NULL
             JOIN documents ON documents.seq = $1
             WHERE w.user_id <> $3 AND ({}) >= $9
             ON CONFLICT (user_id, doc_seq, kind) WHERE read_at IS NULL AND doc_seq IS NOT NULL
             DO UPDATE SET count = notices.count + excluded.count,
                 last_rev = excluded.last_rev, actor = excluded.actor,
                 updated_at = excluded.updated_at, mailed_at = NULL",
            level("w.user_id")
        )
    });
    crate::db::query(SQL.as_str())
        .bind(doc_seq)
        .bind(author)
        .bind(author_id.unwrap_or(0))
        .bind(first)
        .bind(last)
        .bind(saves)
        .bind(now)
        .bind(kind)
        // A suggested edit is for those who may decide it.
        .bind(if kind == "suggested" { 2i64 } else { 1 })
        .execute(ex)
        .await
        .map(|done| done.rows_affected())
}

/// The people watching document `$1`, or its space or a folder it is in (or
/// above), without those who turned watching off for this document.
const WATCHING: &str = "SELECT user_id FROM document_watches WHERE doc_seq = $1 AND watching = 1
    UNION
    SELECT p.user_id FROM place_watches AS p JOIN documents AS pd ON pd.seq = $1
    WHERE p.space_id = pd.space_id
      AND (p.folder = '' OR p.folder = pd.folder
           OR substr(pd.folder, 1, length(p.folder) + 1) = p.folder || '/')
      AND NOT EXISTS (SELECT 1 FROM document_watches AS x
                      WHERE x.doc_seq = $1 AND x.user_id = p.user_id AND x.watching = 0)";

/// The document's text as it is now.
pub async fn body(ex: &impl Conn, doc_seq: i64) -> Result<Option<String>, Error> {
    crate::db::query_scalar("SELECT body FROM documents WHERE seq = $1")
        .bind(doc_seq)
        .fetch_optional(ex)
        .await
}

/// The members of a group whose accounts are enabled.
pub async fn group_members(ex: &impl Conn, group_id: i64) -> Result<Vec<i64>, Error> {
    crate::db::query_scalar(
        "SELECT gm.user_id FROM group_members AS gm JOIN users AS u ON u.id = gm.user_id
         WHERE gm.group_id = $1 AND u.disabled_at IS NULL ORDER BY gm.user_id",
    )
    .bind(group_id)
    .fetch_all(ex)
    .await
}

/// Enabled accounts by name (any case).
pub async fn people_named(ex: &impl Conn, names: &[String]) -> Result<Vec<i64>, Error> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT id FROM users WHERE disabled_at IS NULL AND lower(username) IN ({})",
        marks.join(", ")
    );
    let mut q = crate::db::query_scalar::<i64>(sql);
    for name in names {
        q = q.bind(name.to_lowercase());
    }
    q.fetch_all(ex).await
}

/// Each of `people` (enabled accounts) with their access to document
/// `doc_seq` now and whether they watch what reaches them.
pub async fn access_of(
    ex: &impl Conn,
    doc_seq: i64,
    people: &[i64],
) -> Result<Vec<(i64, Access, bool)>, Error> {
    let mut out = Vec::with_capacity(people.len());
    for chunk in people.chunks(200) {
        let marks: Vec<String> = (2..chunk.len() + 2).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT u.id, {} AS access, CAST(u.watch_own AS BIGINT) FROM documents, users AS u
             WHERE documents.seq = $1 AND u.disabled_at IS NULL AND u.id IN ({})",
            level("u.id"),
            marks.join(", ")
        );
        let mut q = crate::db::query_as::<(i64, i64, i64)>(sql).bind(doc_seq);
        for id in chunk {
            q = q.bind(*id);
        }
        for (id, n, watch) in q.fetch_all(ex).await? {
            out.push((id, Access::from_level(n), watch == 1));
        }
    }
    Ok(out)
}

/// A person's name.
pub async fn name_of(ex: &impl Conn, id: i64) -> Result<Option<String>, Error> {
    crate::db::query_scalar("SELECT username FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// Tells `user` of a change of `kind` to document `doc_seq`: an unread notice
/// of that kind about it gathers this one (one more, the last revision and
/// the last actor), else a new one is made. 1, or 0 if neither.
pub async fn tell_document(
    ex: &impl Conn,
    user: i64,
    kind: &str,
    doc_seq: i64,
    actor: Option<&str>,
    rev: Option<i64>,
    now: i64,
) -> Result<u64, Error> {
    crate::db::query(
        "INSERT INTO notices
             (user_id, kind, doc_seq, actor, first_rev, last_rev, count, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5, 1, $6, $6)
         ON CONFLICT (user_id, doc_seq, kind) WHERE read_at IS NULL AND doc_seq IS NOT NULL
         DO UPDATE SET count = notices.count + 1,
             last_rev = coalesce(excluded.last_rev, notices.last_rev),
             actor = excluded.actor, updated_at = excluded.updated_at, mailed_at = NULL",
    )
    .bind(user)
    .bind(kind)
    .bind(doc_seq)
    .bind(actor)
    .bind(rev)
    .bind(now)
    .execute(ex)
    .await
    .map(|done| done.rows_affected())
}

/// Whether `user` was ever told they are mentioned in `doc_seq`.
pub async fn mentioned_before(ex: &impl Conn, user: i64, doc_seq: i64) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar(
        "SELECT id FROM notices WHERE user_id = $1 AND doc_seq = $2 AND kind = 'mentioned' LIMIT 1",
    )
    .bind(user)
    .bind(doc_seq)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Tells `user` that `actor` added them (or a group of theirs) to a space
/// (1: the notice made).
pub async fn tell_space(
    ex: &impl Conn,
    user: i64,
    space_id: i64,
    actor: Option<&str>,
    now: i64,
) -> Result<u64, Error> {
    crate::db::query(
        "INSERT INTO notices (user_id, kind, space_id, actor, count, created_at, updated_at)
         VALUES ($1, 'space', $2, $3, 1, $4, $4)",
    )
    .bind(user)
    .bind(space_id)
    .bind(actor)
    .bind(now)
    .execute(ex)
    .await
    .map(|done| done.rows_affected())
}

/// `user` watches `doc_seq`, unless they already said either way.
pub async fn watch_unless_said(
    ex: &impl Conn,
    doc_seq: i64,
    user: i64,
    now: i64,
) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO document_watches (doc_seq, user_id, watching, created_at)
         VALUES ($1, $2, 1, $3) ON CONFLICT (doc_seq, user_id) DO NOTHING",
    )
    .bind(doc_seq)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}
