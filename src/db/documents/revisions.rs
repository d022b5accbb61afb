//! How revisions are stored. A body is stored once per document (keyed by SHA-256), zstd
//! compressed against the text it replaced, so a one-line edit costs bytes; every
//! `SNAPSHOT_EVERY` steps it is stored whole, so reading any revision decompresses
//! a bounded chain.

use sha2::{Digest, Sha256};

pub use super::stored_texts::StoredTexts;

pub const SNAPSHOT_EVERY: i64 = 32;
const LEVEL: i32 = 3;

#[derive(Debug, Clone)]
pub struct Revision {
    pub rev: i64,
    pub title: String,
    pub size: i64,
    pub added: i64,
    pub removed: i64,
    pub author: Option<String>,
    pub created_at: i64,
    pub text_hash: Vec<u8>,
    /// The document's folder and tags (a JSON array) as this revision left them.
    pub folder: String,
    pub tags: String,
}
crate::db::from_row!(Revision {
    rev,
    title,
    size,
    added,
    removed,
    author,
    created_at,
    text_hash,
    folder,
    tags
});

pub fn hash(text: &str) -> Vec<u8> {
    Sha256::digest(text.as_bytes()).to_vec()
}

thread_local! {
    /// Making a zstd context costs more than compressing a small text with it.
    static PLAIN: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
    /// The context for deltas, kept like `PLAIN`.
    static DELTA: std::cell::RefCell<Option<zstd::zstd_safe::CCtx<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// `text` compressed against `base` (the text it replaces), read back with
/// `decompress` given the same base. The base is loaded for this one text,
/// with tables sized for the two texts: a compressor made with the base as its
/// dictionary built a dictionary of full-size tables at every save (11 % of
/// a server's time under `cargo bench --bench saves`, perf). Both write the
/// same kind of frame (the base as raw content before the text), so texts
/// stored either way read back alike.
fn delta(text: &str, base: &str) -> std::io::Result<Vec<u8>> {
    use zstd::zstd_safe::{CCtx, compress_bound, get_error_name};
    DELTA.with_borrow_mut(|slot| {
        let cctx = match slot {
            Some(cctx) => cctx,
            None => slot.insert(
                CCtx::try_create()
                    .ok_or_else(|| std::io::Error::other("zstd could not make a context"))?,
            ),
        };
        let mut out = Vec::with_capacity(compress_bound(text.len()));
        cctx.compress_using_dict(&mut out, text.as_bytes(), base.as_bytes(), LEVEL)
            .map_err(|code| std::io::Error::other(get_error_name(code)))?;
        Ok(out)
    })
}

pub fn compress(text: &str, base: Option<&str>) -> std::io::Result<Vec<u8>> {
    match base {
        Some(base) => delta(text, base),
        None => PLAIN.with_borrow_mut(|slot| {
            if slot.is_none() {
                *slot = Some(zstd::bulk::Compressor::new(LEVEL)?);
            }
            match slot {
                Some(c) => c.compress(text.as_bytes()),
                None => zstd::bulk::compress(text.as_bytes(), LEVEL),
            }
        }),
    }
}

pub fn decompress(data: &[u8], base: Option<&[u8]>, raw_size: usize) -> std::io::Result<Vec<u8>> {
    match base {
        Some(base) => zstd::bulk::Decompressor::with_dictionary(base)?.decompress(data, raw_size),
        None => zstd::bulk::decompress(data, raw_size),
    }
}

fn io_err(e: std::io::Error) -> crate::db::Error {
    crate::db::io_error(e)
}

/// A revision to append, as the domain made it.
pub struct NewRevision<'a> {
    pub doc_seq: i64,
    pub rev: i64,
    pub title: &'a str,
    pub body: &'a str,
    /// The body it replaces (None for a new document).
    pub prev: Option<&'a str>,
    /// Lines added and removed since `prev`.
    pub added: i64,
    pub removed: i64,
    pub author: Option<&'a str>,
    pub now: i64,
}

/// A revision's text, hashed and compressed before the writer is taken: what
/// `store_text` writes. Made against the texts stored when it was made; the
/// caller makes sure the document has not changed since (its version).
pub struct StoredText {
    pub hash: Vec<u8>,
    pub(super) raw_size: i64,
    /// `None` when the document already holds this text (nothing to store).
    pub(super) data: Option<Compressed>,
}

/// A revision's text and line counts, made against the text it replaces.
pub struct QueuedRevision {
    pub text: StoredText,
    pub added: i64,
    pub removed: i64,
    pub author: Option<String>,
}

/// A text's zstd bytes, and the base text's hash and the delta's depth when it
/// is stored against one.
type Compressed = (Vec<u8>, Option<(Vec<u8>, i64)>);

impl StoredText {
    /// A new document's first text: stored whole; no query needed.
    pub fn whole(body: &str) -> Result<Self, crate::db::Error> {
        Ok(Self {
            hash: hash(body),
            raw_size: body.len() as i64,
            data: Some((compress(body, None).map_err(io_err)?, None)),
        })
    }
}

/// Hashes `body` and, unless the document already holds that text, compresses
/// it against `prev` (the body it replaces) where `prev` is stored shallower than
/// `SNAPSHOT_EVERY`, whole otherwise. What is `known` of the stored texts (read
/// with the document for this `body`) is used where it speaks of `prev`;
/// otherwise they are looked up.
pub async fn prepare_text(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    (body, prev): (&str, Option<&str>),
    known: Option<&StoredTexts>,
) -> Result<StoredText, crate::db::Error> {
    let hash = known.map_or_else(|| self::hash(body), |k| k.new_hash.clone());
    let prev = prev.map(|p| (p, self::hash(p)));
    let prev_hash = prev.as_ref().map(|(_, h)| h);
    // Whether the document holds this text already, and how deep the text it
    // replaces is stored.
    let (new_stored, prev_depth) = match known.and_then(|k| k.about(prev_hash?)) {
        Some(known) => known,
        // One look-up, one trip to the database.
        None => {
            let stored: Vec<(Vec<u8>, i64)> = crate::db::query_as(
                "SELECT hash, depth FROM revision_texts WHERE doc_seq = $1 AND hash IN ($2, $3)",
            )
            .bind(doc_seq)
            .bind(&hash)
            .bind(prev_hash.unwrap_or(&hash))
            .fetch_all(conn)
            .await?;
            let depth_of = |wanted: &[u8]| stored.iter().find(|(h, _)| h == wanted).map(|s| s.1);
            (
                depth_of(&hash).is_some(),
                prev_hash.and_then(|p| depth_of(p)),
            )
        }
    };
    let raw_size = body.len() as i64;
    if new_stored {
        return Ok(StoredText {
            hash,
            raw_size,
            data: None,
        });
    }
    let base = prev.and_then(|(prev, prev_hash)| {
        prev_depth
            .filter(|d| d + 1 < SNAPSHOT_EVERY)
            .map(|d| (prev, prev_hash, d + 1))
    });
    let data = compress(body, base.as_ref().map(|b| b.0)).map_err(io_err)?;
    Ok(StoredText {
        hash,
        raw_size,
        data: Some((data, base.map(|(_, h, d)| (h, d)))),
    })
}

/// Appends a revision of a document, inside the caller's transaction: its text is
/// stored once per document, as a delta against `prev` where that is stored.
pub async fn record(
    conn: &impl crate::db::Conn,
    new: NewRevision<'_>,
) -> Result<(), crate::db::Error> {
    let text = prepare_text(conn, new.doc_seq, (new.body, new.prev), None).await?;
    record_prepared(conn, &new, &text).await
}

/// Appends revision `new` whose text `prepare_text` made.
pub async fn record_prepared(
    conn: &impl crate::db::Conn,
    new: &NewRevision<'_>,
    text: &StoredText,
) -> Result<(), crate::db::Error> {
    if let Some((data, base)) = &text.data {
        crate::db::query(
            "INSERT INTO revision_texts (doc_seq, hash, base, depth, raw_size, data)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(new.doc_seq)
        .bind(&text.hash)
        .bind(base.as_ref().map(|b| b.0.clone()))
        .bind(base.as_ref().map_or(0, |b| b.1))
        .bind(text.raw_size)
        .bind(data.clone())
        .execute(conn)
        .await?;
    }
    crate::db::query(
        // The folder and tags are the document's, as the write before this one
        // in the same transaction left them.
        "INSERT INTO revisions
             (doc_seq, rev, title, text_hash, size, added, removed, author, created_at, folder, tags)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, d.folder, d.tags FROM documents AS d
         WHERE d.seq = $1",
    )
    .bind(new.doc_seq)
    .bind(new.rev)
    .bind(new.title)
    .bind(&text.hash)
    .bind(text.raw_size)
    .bind(new.added)
    .bind(new.removed)
    .bind(new.author)
    .bind(new.now)
    .execute(conn)
    .await?;
    Ok(())
}

const REVISION_COLUMNS: &str =
    "rev, title, size, added, removed, author, created_at, text_hash, folder, tags";

pub async fn list(
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    page: i64,
    size: i64,
) -> Result<Vec<Revision>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT {REVISION_COLUMNS} FROM revisions WHERE doc_seq = $1
         ORDER BY rev DESC LIMIT $2 OFFSET $3"
    ))
    .bind(doc_seq)
    .bind(size + 1)
    .bind((page - 1).saturating_mul(size))
    .fetch_all(ex)
    .await
}

pub async fn find(
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    rev: i64,
) -> Result<Option<Revision>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT {REVISION_COLUMNS} FROM revisions WHERE doc_seq = $1 AND rev = $2"
    ))
    .bind(doc_seq)
    .bind(rev)
    .fetch_optional(ex)
    .await
}

/// The full text stored under `hash`: one query fetches the chain back to its
/// snapshot, then each delta is applied forward.
pub async fn text(
    ex: &impl crate::db::Conn,
    doc_seq: i64,
    hash: &[u8],
) -> Result<String, crate::db::Error> {
    let chain: Vec<(Vec<u8>, i64)> = crate::db::query_as(
        "WITH RECURSIVE chain (hash, base, data, raw_size, n) AS (
             SELECT hash, base, data, raw_size, 0 FROM revision_texts
             WHERE doc_seq = $1 AND hash = $2
             UNION ALL
             SELECT t.hash, t.base, t.data, t.raw_size, chain.n + 1
             FROM revision_texts t JOIN chain ON t.doc_seq = $1 AND t.hash = chain.base
         )
         SELECT data, raw_size FROM chain ORDER BY n DESC",
    )
    .bind(doc_seq)
    .bind(hash)
    .fetch_all(ex)
    .await?;
    let mut text: Option<Vec<u8>> = None;
    for (data, raw_size) in &chain {
        text = Some(decompress(data, text.as_deref(), *raw_size as usize).map_err(io_err)?);
    }
    let bytes = text.ok_or(crate::db::not_found())?;
    String::from_utf8(bytes).map_err(|e| crate::db::internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_round_trips_and_is_small() {
        let base = "line\n".repeat(2000);
        let next = format!("{base}one more line\n");
        let delta = compress(&next, Some(&base)).unwrap();
        assert!(delta.len() < 100, "{}", delta.len());
        let back = decompress(&delta, Some(base.as_bytes()), next.len()).unwrap();
        assert_eq!(back, next.as_bytes());
    }

    /// Deltas stored before the context was kept (a compressor made with the
    /// base as its dictionary) read back as they did, and the new ones match
    /// them in size within a few bytes: nothing stored changes meaning.
    #[test]
    fn deltas_made_either_way_read_back_alike() {
        let base: String = (0..300)
            .map(|i| format!("line {i} of the plan\n"))
            .collect();
        let next = base.replace("line 150 of", "line 150, changed, of");
        let old = zstd::bulk::Compressor::with_dictionary(LEVEL, base.as_bytes())
            .unwrap()
            .compress(next.as_bytes())
            .unwrap();
        let new = compress(&next, Some(&base)).unwrap();
        for (bytes, made) in [(&old, "old"), (&new, "new")] {
            let back = decompress(bytes, Some(base.as_bytes()), next.len()).unwrap();
            assert_eq!(back, next.as_bytes(), "{made}");
        }
        // A few bytes more for a small edit (its tables are sized for the
        // two texts), far less than the text.
        assert!(
            new.len() <= old.len() + 64,
            "{} vs {}",
            new.len(),
            old.len()
        );
        // One context, many bases: each delta is made against its own.
        let other = compress(&base, Some(&next)).unwrap();
        let back = decompress(&other, Some(next.as_bytes()), base.len()).unwrap();
        assert_eq!(back, base.as_bytes());
    }
}
