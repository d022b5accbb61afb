//! Comments under documents, as stored. Who may write or see them is the
//! domain's (`crate::comments`), which asks the access statement first.

use crate::db::{Conn, Error};

/// One comment as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentRow {
    pub id: i64,
    pub doc_seq: i64,
    pub parent_id: Option<i64>,
    pub author_id: Option<i64>,
    pub author: String,
    pub body: String,
    pub html: String,
    pub quote: Option<String>,
    pub created_at: i64,
    pub edited_at: Option<i64>,
    pub resolved_at: Option<i64>,
    pub resolved_by: Option<String>,
    pub deleted_at: Option<i64>,
}
crate::db::from_row!(CommentRow {
    id,
    doc_seq,
    parent_id,
    author_id,
    author,
    body,
    html,
    quote,
    created_at,
    edited_at,
    resolved_at,
    resolved_by,
    deleted_at
});

const COLUMNS: &str = "id, doc_seq, parent_id, author_id, author, body, html, quote, \
     created_at, edited_at, resolved_at, resolved_by, deleted_at";

/// A comment to write.
#[derive(Debug, Clone)]
pub struct NewComment<'a> {
    pub doc_seq: i64,
    pub parent_id: Option<i64>,
    pub author_id: i64,
    pub author: &'a str,
    pub body: &'a str,
    pub html: &'a str,
    pub quote: Option<&'a str>,
    pub now: i64,
}

/// Every comment of document `doc_seq`, oldest first.
pub async fn list(ex: &impl Conn, doc_seq: i64) -> Result<Vec<CommentRow>, Error> {
    crate::db::query_as::<CommentRow>(format!(
        "SELECT {COLUMNS} FROM comments WHERE doc_seq = $1 ORDER BY id"
    ))
    .bind(doc_seq)
    .fetch_all(ex)
    .await
}

/// Comment `id` if it is one of document `doc_seq`'s.
pub async fn find(ex: &impl Conn, doc_seq: i64, id: i64) -> Result<Option<CommentRow>, Error> {
    crate::db::query_as::<CommentRow>(format!(
        "SELECT {COLUMNS} FROM comments WHERE doc_seq = $1 AND id = $2"
    ))
    .bind(doc_seq)
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// Comment `id`, whichever document it is under (for the notifier).
pub async fn by_id(ex: &impl Conn, id: i64) -> Result<Option<CommentRow>, Error> {
    crate::db::query_as::<CommentRow>(format!("SELECT {COLUMNS} FROM comments WHERE id = $1"))
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// Writes a comment and queues it for the notifier; its id.
pub async fn insert(ex: &impl Conn, c: &NewComment<'_>) -> Result<i64, Error> {
    let id: i64 = crate::db::query_scalar(
        "INSERT INTO comments (doc_seq, parent_id, author_id, author, body, html, quote, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(c.doc_seq)
    .bind(c.parent_id)
    .bind(c.author_id)
    .bind(c.author)
    .bind(c.body)
    .bind(c.html)
    .bind(c.quote)
    .bind(c.now)
    .fetch_one(ex)
    .await?;
    crate::db::notices::queue::commented(ex, c.doc_seq, id, c.author_id, c.now).await?;
    Ok(id)
}

/// Puts imported comments back under document `doc_seq` as they were (their
/// times, authors and resolution), replies after their thread's first; the
/// new ids in the order given. Nobody is told of them.
pub async fn restore(ex: &impl Conn, row: &CommentRow) -> Result<i64, Error> {
    crate::db::query_scalar(
        "INSERT INTO comments (doc_seq, parent_id, author_id, author, body, html, quote,
                               created_at, edited_at, resolved_at, resolved_by, deleted_at)
         VALUES ($1, $2, (SELECT id FROM users WHERE username = $3), $3, $4, $5, $6,
                 $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind(row.doc_seq)
    .bind(row.parent_id)
    .bind(&row.author)
    .bind(&row.body)
    .bind(&row.html)
    .bind(&row.quote)
    .bind(row.created_at)
    .bind(row.edited_at)
    .bind(row.resolved_at)
    .bind(&row.resolved_by)
    .bind(row.deleted_at)
    .fetch_one(ex)
    .await
}

/// Changes a comment's text.
pub async fn edit(ex: &impl Conn, id: i64, body: &str, html: &str, now: i64) -> Result<(), Error> {
    crate::db::query("UPDATE comments SET body = $2, html = $3, edited_at = $4 WHERE id = $1")
        .bind(id)
        .bind(body)
        .bind(html)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Deletes a comment: one with replies keeps its place with its text
/// emptied; a deleted first comment whose last reply goes goes with it.
pub async fn remove(ex: &impl Conn, c: &CommentRow, now: i64) -> Result<(), Error> {
    let replies: i64 =
        crate::db::query_scalar("SELECT count(*) FROM comments WHERE parent_id = $1")
            .bind(c.id)
            .fetch_one(ex)
            .await?;
    if replies > 0 {
        crate::db::query(
            "UPDATE comments SET body = '', html = '', quote = NULL, deleted_at = $2 WHERE id = $1",
        )
        .bind(c.id)
        .bind(now)
        .execute(ex)
        .await?;
        return Ok(());
    }
    crate::db::query("DELETE FROM comments WHERE id = $1")
        .bind(c.id)
        .execute(ex)
        .await?;
    if let Some(parent) = c.parent_id {
        crate::db::query(
            "DELETE FROM comments WHERE id = $1 AND deleted_at IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM comments AS r WHERE r.parent_id = $1)",
        )
        .bind(parent)
        .execute(ex)
        .await?;
    }
    Ok(())
}

/// Marks a thread resolved by `by`, or open again (`by` none).
pub async fn resolve(ex: &impl Conn, id: i64, by: Option<&str>, now: i64) -> Result<(), Error> {
    crate::db::query("UPDATE comments SET resolved_by = $2, resolved_at = $3 WHERE id = $1")
        .bind(id)
        .bind(by)
        .bind(by.map(|_| now))
        .execute(ex)
        .await?;
    Ok(())
}

/// Who may comment in space `space_id`: 1 whoever may read, 2 only editors.
pub async fn space_rule(ex: &impl Conn, space_id: i64) -> Result<i64, Error> {
    let rule: Option<i64> =
        crate::db::query_scalar("SELECT comment_role FROM spaces WHERE id = $1")
            .bind(space_id)
            .fetch_optional(ex)
            .await?;
    Ok(rule.unwrap_or(1))
}

/// Sets who may comment in space `space_id`.
pub async fn set_space_rule(ex: &impl Conn, space_id: i64, rule: i64) -> Result<(), Error> {
    crate::db::query("UPDATE spaces SET comment_role = $2 WHERE id = $1")
        .bind(space_id)
        .bind(rule)
        .execute(ex)
        .await?;
    Ok(())
}

/// The comments of documents `seqs`, by document and then oldest first (for
/// an export: one query for a page of documents).
pub async fn of_documents(ex: &impl Conn, seqs: &[i64]) -> Result<Vec<CommentRow>, Error> {
    let mut out = Vec::new();
    for chunk in seqs.chunks(200) {
        let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT {COLUMNS} FROM comments WHERE doc_seq IN ({}) ORDER BY doc_seq, id",
            marks.join(", ")
        );
        let mut q = crate::db::query_as::<CommentRow>(sql);
        for seq in chunk {
            q = q.bind(*seq);
        }
        out.extend(q.fetch_all(ex).await?);
    }
    Ok(out)
}

/// A live document's sequence number by its id.
pub async fn document_seq(ex: &impl Conn, id: &str) -> Result<Option<i64>, Error> {
    crate::db::query_scalar("SELECT seq FROM documents WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// A comment found by search, with its document.
#[derive(Debug, Clone)]
pub struct CommentHit {
    pub id: i64,
    pub doc_id: String,
    pub title: String,
    pub author: String,
    pub body: String,
    pub created_at: i64,
}
crate::db::from_row!(CommentHit {
    id,
    doc_id,
    title,
    author,
    body,
    created_at
});

/// Whether any comment is held that is not in the trash (a search with none
/// to look in asks nothing more).
pub async fn any(ex: &impl Conn) -> Result<bool, Error> {
    crate::db::query_scalar("SELECT EXISTS (SELECT 1 FROM comments WHERE deleted_at IS NULL)")
        .fetch_one(ex)
        .await
}

/// The newest comments (at most `most`) on live documents `viewer` may read
/// whose text holds every one of `words` (lower case, matched as parts of
/// words, case aside), in space `space` (0: the viewer's personal space) or
/// in any.
pub async fn search(
    ex: &impl Conn,
    viewer: i64,
    words: &[String],
    space: Option<i64>,
    most: i64,
) -> Result<Vec<CommentHit>, Error> {
    if words.is_empty() {
        return Ok(Vec::new());
    }
    // SQLite takes the comments first (a `CROSS JOIN` keeps its order): with few
    // comments and no statistics it would walk every readable document instead.
    let (int, join) = if crate::db::is_postgres(ex) {
        ("::bigint", "JOIN")
    } else {
        ("", "CROSS JOIN")
    };
    let matches: Vec<String> = (0..words.len())
        .map(|i| format!("lower(c.body) LIKE ${} ESCAPE '\\'", i + 4))
        .collect();
    let sql = format!(
        "SELECT c.id, d.id AS doc_id, d.title, c.author, c.body, c.created_at
         FROM comments AS c {join} documents AS d ON d.seq = c.doc_seq
         WHERE d.deleted_at IS NULL AND c.deleted_at IS NULL AND {}
           AND ($2{int} IS NULL OR d.space_id = $2{int}
                OR ($2{int} = 0 AND d.space_id IS NULL AND d.owner_id = $1))
           AND {}
         ORDER BY c.id DESC LIMIT $3",
        crate::db::documents::visible("$1"),
        matches.join(" AND ")
    );
    let mut q = crate::db::query_as::<CommentHit>(sql)
        .bind(viewer)
        .bind(space)
        .bind(most);
    for w in words {
        let escaped = w
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        q = q.bind(format!("%{escaped}%"));
    }
    q.fetch_all(ex).await
}
