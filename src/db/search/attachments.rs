//! The text of attached files, searched (migrations/*/0030): pages that hold
//! the words, each with a document that names the file and that the viewer
//! may read, best first. The words come as the engine's own query (FTS5 on
//! SQLite, a `tsquery` on PostgreSQL) from the domain's translators.

use super::Scope;
use crate::db::documents::visible;
use crate::db::{Backend, Db, Error};

/// A page of a file that holds the words, with its document.
#[derive(Debug)]
pub struct PageHit {
    pub id: String,
    pub title: String,
    pub updated_at: i64,
    pub file: String,
    pub page: i64,
    /// The page's text (its first `SCAN_CHARS` characters).
    pub text: String,
}
crate::db::from_row!(PageHit {
    id,
    title,
    updated_at,
    file,
    page,
    text
});

/// Up to `limit` pages matching `query`, best first, one per document.
pub async fn found(
    db: &Db,
    query: &str,
    limit: i64,
    (viewer, scope): (Option<i64>, &Scope),
) -> Result<Vec<PageHit>, Error> {
    let postgres = db.backend == Backend::Postgres;
    let (from, rank) = if postgres {
        (
            "attachment_pages AS p CROSS JOIN to_tsquery('simple', quire_fold($1)) AS q",
            "p.words @@ q ORDER BY ts_rank(p.words, q) DESC",
        )
    } else {
        (
            "attachment_words JOIN attachment_pages AS p ON p.seq = attachment_words.rowid",
            "attachment_words MATCH $1 ORDER BY bm25(attachment_words)",
        )
    };
    let (filters, order) = rank.split_once(" ORDER BY ").unwrap_or((rank, "1"));
    let sql = format!(
        "SELECT d.id, d.title, d.updated_at, f.name AS file, p.page,
                substr(p.text, 1, {chars}) AS text
         FROM {from}
         JOIN document_files AS f ON f.hash = p.hash
         JOIN documents AS d ON d.seq = f.doc_seq
         WHERE {filters} AND d.deleted_at IS NULL AND {} AND {}
         ORDER BY {order}, d.seq DESC, p.page LIMIT $2 OFFSET $3",
        visible("$4"),
        super::in_scope(postgres),
        chars = super::SCAN_CHARS,
    );
    let q = crate::db::query_as::<PageHit>(sql)
        .bind(query)
        .bind(limit * 4)
        .bind(0i64);
    let mut pages = scope.bind(q, viewer).fetch_all(&db.read).await?;
    let mut seen = Vec::new();
    pages.retain(|p| {
        let first = !seen.contains(&p.id);
        seen.push(p.id.clone());
        first
    });
    pages.truncate(limit as usize);
    Ok(pages)
}
