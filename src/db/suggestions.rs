//! Suggested edits, as stored. Who may make, see or decide them is the
//! domain's (`crate::suggestions`).

use crate::db::{Conn, Error};

#[derive(Debug, Clone)]
pub struct SuggestionRow {
    pub id: i64,
    pub doc_seq: i64,
    pub author_id: Option<i64>,
    pub author: String,
    pub base_version: i64,
    pub title: String,
    pub body: String,
    pub note: String,
    pub state: String,
    pub decided_by: Option<String>,
    pub decided_at: Option<i64>,
    pub answer: Option<String>,
    pub accepted_version: Option<i64>,
    pub created_at: i64,
}
crate::db::from_row!(SuggestionRow {
    id,
    doc_seq,
    author_id,
    author,
    base_version,
    title,
    body,
    note,
    state,
    decided_by,
    decided_at,
    answer,
    accepted_version,
    created_at
});

const COLUMNS: &str =
    "SELECT id, doc_seq, author_id, author, base_version, title, body, note, state,
        decided_by, decided_at, answer, accepted_version, created_at FROM suggestions";

/// A suggestion to write.
pub struct NewSuggestion<'a> {
    pub doc_seq: i64,
    pub author_id: i64,
    pub author: &'a str,
    pub base_version: i64,
    pub title: &'a str,
    pub body: &'a str,
    pub note: &'a str,
    pub now: i64,
}

pub async fn insert(ex: &impl Conn, s: &NewSuggestion<'_>) -> Result<i64, Error> {
    crate::db::query_scalar(
        "INSERT INTO suggestions (doc_seq, author_id, author, base_version, title, body, note, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(s.doc_seq)
    .bind(s.author_id)
    .bind(s.author)
    .bind(s.base_version)
    .bind(s.title)
    .bind(s.body)
    .bind(s.note)
    .bind(s.now)
    .fetch_one(ex)
    .await
}

/// Suggestion `id` if it is document `doc_seq`'s.
pub async fn find(ex: &impl Conn, doc_seq: i64, id: i64) -> Result<Option<SuggestionRow>, Error> {
    crate::db::query_as::<SuggestionRow>(format!("{COLUMNS} WHERE doc_seq = $1 AND id = $2"))
        .bind(doc_seq)
        .bind(id)
        .fetch_optional(ex)
        .await
}

pub async fn by_id(ex: &impl Conn, id: i64) -> Result<Option<SuggestionRow>, Error> {
    crate::db::query_as::<SuggestionRow>(format!("{COLUMNS} WHERE id = $1"))
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// A document's open suggestions, oldest first; only `author_id`'s unless `all`.
pub async fn open(
    ex: &impl Conn,
    doc_seq: i64,
    author_id: i64,
    all: bool,
) -> Result<Vec<SuggestionRow>, Error> {
    crate::db::query_as::<SuggestionRow>(format!(
        "{COLUMNS} WHERE doc_seq = $1 AND state = 'open' AND ($3 = 1 OR author_id = $2) ORDER BY id"
    ))
    .bind(doc_seq)
    .bind(author_id)
    .bind(i64::from(all))
    .fetch_all(ex)
    .await
}

/// Marks a suggestion decided: `accepted` (as `version`) or declined (with `answer`).
pub async fn decide(
    ex: &impl Conn,
    id: i64,
    (state, by, now): (&str, &str, i64),
    answer: Option<&str>,
    version: Option<i64>,
) -> Result<bool, Error> {
    let done = crate::db::query(
        "UPDATE suggestions SET state = $2, decided_by = $3, decided_at = $4, answer = $5,
             accepted_version = $6
         WHERE id = $1 AND state = 'open'",
    )
    .bind(id)
    .bind(state)
    .bind(by)
    .bind(now)
    .bind(answer)
    .bind(version)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The versions of document `doc_seq` that accepted suggestions made, with
/// who suggested each.
pub async fn accepted(ex: &impl Conn, doc_seq: i64) -> Result<Vec<(i64, String)>, Error> {
    crate::db::query_as(
        "SELECT accepted_version, author FROM suggestions
         WHERE doc_seq = $1 AND state = 'accepted' AND accepted_version IS NOT NULL",
    )
    .bind(doc_seq)
    .fetch_all(ex)
    .await
}

/// Sets whether space `space_id` reviews changes (only managers and owners save).
pub async fn set_space_review(ex: &impl Conn, space_id: i64, on: bool) -> Result<(), Error> {
    crate::db::query("UPDATE spaces SET review_required = $2 WHERE id = $1")
        .bind(space_id)
        .bind(i64::from(on))
        .execute(ex)
        .await?;
    Ok(())
}
