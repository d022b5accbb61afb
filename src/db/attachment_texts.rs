//! The text of attached contents, as stored (migrations/*/0030): which wait
//! to be read, claims so that one instance reads each, the pages read, and
//! the search of them. What is read and how is the domain's
//! (`documents::extraction`).

use crate::db::{Conn, Error, is_postgres};

/// A content to read, with a name a document gives it (for its kind).
#[derive(Debug)]
pub struct Claimed {
    pub hash: Vec<u8>,
    pub name: String,
    pub bytes: Vec<u8>,
}
crate::db::from_row!(Claimed { hash, name, bytes });

/// Tries of one content at most: a file that stopped the reader this often
/// (killed for its memory or time) is given up.
pub const TRIES: i64 = 3;

/// Whether any content waits to be read or to be claimed again.
pub async fn any_waiting(ex: &impl Conn, now: i64) -> Result<bool, Error> {
    crate::db::query_scalar::<i64>(
        "SELECT count(*) FROM (
             SELECT 1 FROM attachments AS a
             WHERE NOT EXISTS (SELECT 1 FROM attachment_texts AS t WHERE t.hash = a.hash)
             UNION ALL
             SELECT 1 FROM attachment_texts
             WHERE state = 'working' AND claimed_until < $1
             LIMIT 1) AS w",
    )
    .bind(now)
    .fetch_one(ex)
    .await
    .map(|n| n > 0)
}

/// Claims one content until `until`: a new one, or one whose reader stopped
/// without a word (its claim ran out) and has tries left; one with none left
/// is marked failed. None when nothing waits.
pub async fn claim(ex: &impl Conn, now: i64, until: i64) -> Result<Option<Claimed>, Error> {
    crate::db::query(
        "UPDATE attachment_texts SET state = 'failed', claimed_until = NULL, finished_at = $1,
             note = 'reading it stopped the reader every time (too large or malformed)'
         WHERE state = 'working' AND claimed_until < $1 AND tries >= $2",
    )
    .bind(now)
    .bind(TRIES)
    .execute(ex)
    .await?;
    let lock = if is_postgres(ex) {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    let again: Option<Vec<u8>> = crate::db::query_scalar(format!(
        "SELECT hash FROM attachment_texts
         WHERE state = 'working' AND claimed_until < $1 LIMIT 1{lock}"
    ))
    .bind(now)
    .fetch_optional(ex)
    .await?;
    let hash = match again {
        Some(hash) => {
            crate::db::query(
                "UPDATE attachment_texts SET tries = tries + 1, claimed_until = $2 WHERE hash = $1",
            )
            .bind(hash.clone())
            .bind(until)
            .execute(ex)
            .await?;
            hash
        }
        None => {
            let new: Option<Vec<u8>> = crate::db::query_scalar(
                "INSERT INTO attachment_texts (hash, state, claimed_until)
                 SELECT a.hash, 'working', $1 FROM attachments AS a
                 WHERE NOT EXISTS (SELECT 1 FROM attachment_texts AS t WHERE t.hash = a.hash)
                 ORDER BY a.created_at LIMIT 1
                 ON CONFLICT DO NOTHING RETURNING hash",
            )
            .bind(until)
            .fetch_optional(ex)
            .await?;
            match new {
                Some(hash) => hash,
                None => return Ok(None),
            }
        }
    };
    crate::db::query_as::<Claimed>(
        "SELECT a.hash, coalesce((SELECT min(f.name) FROM document_files AS f
                                  WHERE f.hash = a.hash), '') AS name, a.bytes
         FROM attachments AS a WHERE a.hash = $1",
    )
    .bind(hash)
    .fetch_optional(ex)
    .await
}

/// The content's text, page by page: done.
pub async fn read(ex: &impl Conn, hash: &[u8], pages: &[String], now: i64) -> Result<(), Error> {
    crate::db::query("DELETE FROM attachment_pages WHERE hash = $1")
        .bind(hash.to_vec())
        .execute(ex)
        .await?;
    for (i, text) in pages.iter().enumerate() {
        crate::db::query("INSERT INTO attachment_pages (hash, page, text) VALUES ($1, $2, $3)")
            .bind(hash.to_vec())
            .bind(i as i64 + 1)
            .bind(text.as_str())
            .execute(ex)
            .await?;
    }
    finished(ex, hash, ("done", ""), now).await
}

/// How reading ended when it gave no text: `failed` (why) or `skipped`.
pub async fn finished(
    ex: &impl Conn,
    hash: &[u8],
    (state, note): (&str, &str),
    now: i64,
) -> Result<(), Error> {
    crate::db::query(
        "UPDATE attachment_texts SET state = $2, note = $3, claimed_until = NULL, finished_at = $4
         WHERE hash = $1",
    )
    .bind(hash.to_vec())
    .bind(state)
    .bind(note)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}
