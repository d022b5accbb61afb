//! Many documents at once, for imports. The costly work (hashing, compressing
//! history, rendering) happens in `prepare`, off the writer and in parallel; the
//! writer then only runs a few multi-row inserts per batch in the caller's
//! transaction.

use std::collections::{HashMap, HashSet};

use super::revisions::{SNAPSHOT_EVERY, compress, hash, line_changes};
use super::{DocId, RENDER_VERSION, cjk, render_markdown};

/// A document as an import found it.
#[derive(Debug, Clone)]
pub struct NewDoc {
    pub id: DocId,
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub owner_id: Option<i64>,
    pub visibility: String,
    /// Every revision, oldest first, numbered 1..=n, the last one's text being
    /// `body`. Empty: the document starts here, at version 1.
    pub history: Vec<OldRevision>,
}

#[derive(Debug, Clone)]
pub struct OldRevision {
    pub rev: i64,
    pub title: String,
    pub text: String,
    pub author: Option<String>,
    pub created_at: i64,
}

/// Rows ready to insert.
pub struct Prepared {
    pub id: DocId,
    title: String,
    body: String,
    html: String,
    render_version: i64,
    version: i64,
    created_at: i64,
    updated_at: i64,
    owner_id: Option<i64>,
    visibility: String,
    cjk: String,
    texts: Vec<TextRow>,
    revs: Vec<RevRow>,
}

impl Prepared {
    pub fn revisions(&self) -> usize {
        self.revs.len()
    }

    /// Roughly the memory it holds: its texts, page and stored history.
    pub fn bytes(&self) -> usize {
        self.title.len()
            + self.body.len()
            + self.html.len()
            + self.cjk.len()
            + self.texts.iter().map(|t| t.data.len()).sum::<usize>()
    }
}

struct TextRow {
    hash: Vec<u8>,
    base: Option<Vec<u8>>,
    depth: i64,
    raw_size: i64,
    data: Vec<u8>,
}

struct RevRow {
    rev: i64,
    title: String,
    hash: Vec<u8>,
    size: i64,
    added: i64,
    removed: i64,
    author: Option<String>,
    created_at: i64,
}

/// Checks the history and does the CPU work. With `render` false the HTML is left
/// for the first view (`render_version` 0 marks it as not yet rendered).
pub fn prepare(mut doc: NewDoc, render: bool) -> Result<Prepared, String> {
    let clean = |s: &mut String| *s = super::without_nul(s).into_owned();
    clean(&mut doc.title);
    clean(&mut doc.body);
    for r in &mut doc.history {
        clean(&mut r.title);
        clean(&mut r.text);
        r.author.as_mut().map(clean);
    }
    let history = if doc.history.is_empty() {
        vec![OldRevision {
            rev: 1,
            title: doc.title.clone(),
            text: doc.body.clone(),
            author: None,
            created_at: doc.updated_at,
        }]
    } else {
        doc.history
    };
    if history
        .iter()
        .enumerate()
        .any(|(i, r)| r.rev != i as i64 + 1)
    {
        return Err("its history is incomplete: revisions must be numbered 1, 2, 3, ...".into());
    }
    if history.last().is_some_and(|r| r.text != doc.body) {
        return Err("its history does not end with the document's text".into());
    }
    let mut depths: HashMap<Vec<u8>, i64> = HashMap::new();
    let mut texts = Vec::new();
    let mut revs = Vec::with_capacity(history.len());
    let mut prev: Option<(&str, Vec<u8>)> = None;
    for r in &history {
        let h = hash(&r.text);
        if !depths.contains_key(&h) {
            // The same choice `revisions::record` makes: a delta against the text it
            // replaced, a full snapshot every SNAPSHOT_EVERY steps.
            let base = prev
                .as_ref()
                .and_then(|(text, ph)| Some((*text, ph.clone(), depths.get(ph)? + 1)))
                .filter(|(_, _, d)| *d < SNAPSHOT_EVERY);
            let data = compress(&r.text, base.as_ref().map(|b| b.0)).map_err(|e| e.to_string())?;
            let depth = base.as_ref().map_or(0, |b| b.2);
            depths.insert(h.clone(), depth);
            texts.push(TextRow {
                hash: h.clone(),
                base: base.map(|b| b.1),
                depth,
                raw_size: r.text.len() as i64,
                data,
            });
        }
        let (added, removed) = match &prev {
            // Counting lines gives what a diff against nothing would, for less.
            None if !r.text.contains('\r') => (r.text.lines().count() as i64, 0),
            _ => line_changes(prev.as_ref().map_or("", |p| p.0), &r.text),
        };
        revs.push(RevRow {
            rev: r.rev,
            title: r.title.clone(),
            hash: h.clone(),
            size: r.text.len() as i64,
            added,
            removed,
            author: r.author.clone(),
            created_at: r.created_at,
        });
        prev = Some((&r.text, h));
    }
    let (html, render_version) = if render {
        (render_markdown(&doc.body), RENDER_VERSION)
    } else {
        (String::new(), 0)
    };
    Ok(Prepared {
        cjk: cjk::index_text(&doc.title, &doc.body),
        version: history.len() as i64,
        texts,
        revs,
        id: doc.id,
        title: doc.title,
        body: doc.body,
        html,
        render_version,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        owner_id: doc.owner_id,
        visibility: doc.visibility,
    })
}

/// Which of `ids` are already taken.
pub async fn existing_ids(
    conn: &impl crate::db::Conn,
    ids: &[&str],
) -> Result<HashSet<String>, crate::db::Error> {
    let mut found = HashSet::new();
    for chunk in ids.chunks(500) {
        let list: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!("SELECT id FROM documents WHERE id IN ({})", list.join(","));
        let mut q = crate::db::query_scalar::<String>(sql);
        for id in chunk {
            q = q.bind(*id);
        }
        found.extend(q.fetch_all(conn).await?);
    }
    Ok(found)
}

const ROWS_PER_INSERT: usize = 64;

fn insert_sql(table: &str, columns: &str, width: usize, rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|r| {
            let row: Vec<String> = (1..=width).map(|c| format!("${}", r * width + c)).collect();
            format!("({})", row.join(","))
        })
        .collect();
    format!(
        "INSERT INTO {table} ({columns}) VALUES {}",
        values.join(",")
    )
}

/// Inserts every document with its history, in the caller's transaction.
pub async fn insert(
    conn: &impl crate::db::Conn,
    docs: &[Prepared],
) -> Result<(), crate::db::Error> {
    let last: i64 = crate::db::query_scalar("SELECT coalesce(max(seq), 0) FROM documents")
        .fetch_one(conn)
        .await?;
    let seqs: Vec<i64> = (1..=docs.len() as i64).map(|i| last + i).collect();
    for (chunk, seqs) in docs
        .chunks(ROWS_PER_INSERT)
        .zip(seqs.chunks(ROWS_PER_INSERT))
    {
        let sql = insert_sql(
            "documents",
            "seq, id, title, size, body, html, render_version, version, created_at, \
             updated_at, cjk, owner_id, visibility",
            13,
            chunk.len(),
        );
        let mut q = crate::db::query(sql);
        for (d, seq) in chunk.iter().zip(seqs) {
            q = q
                .bind(seq)
                .bind(d.id.as_str())
                .bind(&d.title)
                .bind(d.body.len() as i64)
                .bind(&d.body)
                .bind(&d.html)
                .bind(d.render_version)
                .bind(d.version)
                .bind(d.created_at)
                .bind(d.updated_at)
                .bind(&d.cjk)
                .bind(d.owner_id)
                .bind(&d.visibility);
        }
        q.execute(conn).await?;
    }
    let texts: Vec<(i64, &TextRow)> = docs
        .iter()
        .zip(&seqs)
        .flat_map(|(d, seq)| d.texts.iter().map(move |t| (*seq, t)))
        .collect();
    for chunk in texts.chunks(ROWS_PER_INSERT * 2) {
        let sql = insert_sql(
            "revision_texts",
            "doc_seq, hash, base, depth, raw_size, data",
            6,
            chunk.len(),
        );
        let mut q = crate::db::query(sql);
        for (seq, t) in chunk {
            q = q
                .bind(seq)
                .bind(&t.hash)
                .bind(&t.base)
                .bind(t.depth)
                .bind(t.raw_size)
                .bind(&t.data);
        }
        q.execute(conn).await?;
    }
    let revs: Vec<(i64, &RevRow)> = docs
        .iter()
        .zip(&seqs)
        .flat_map(|(d, seq)| d.revs.iter().map(move |r| (*seq, r)))
        .collect();
    for chunk in revs.chunks(ROWS_PER_INSERT * 2) {
        let sql = insert_sql(
            "revisions",
            "doc_seq, rev, title, text_hash, size, added, removed, author, created_at",
            9,
            chunk.len(),
        );
        let mut q = crate::db::query(sql);
        for (seq, r) in chunk {
            q = q
                .bind(seq)
                .bind(r.rev)
                .bind(&r.title)
                .bind(&r.hash)
                .bind(r.size)
                .bind(r.added)
                .bind(r.removed)
                .bind(&r.author)
                .bind(r.created_at);
        }
        q.execute(conn).await?;
    }
    crate::db::sync_identity(conn, "documents", "seq").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_lines_matches_a_diff_against_nothing() {
        for text in ["", "a", "a\n", "a\nb", "a\n\n", "\n\n\nx"] {
            assert_eq!(
                (text.lines().count() as i64, 0),
                line_changes("", text),
                "{text:?}"
            );
        }
    }
}
