//! Imported documents' rows stored many at once: a few multi-row inserts per
//! batch in the caller's transaction. The rows come ready
//! (`documents::import_rows::prepare` did the hashing, compressing and
//! rendering, off the writer).

use std::collections::HashSet;

/// One imported document's rows, ready to insert.
pub struct DocRows {
    pub id: String,
    pub title: String,
    pub body: String,
    pub html: super::PackedHtml,
    pub render_version: i64,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub owner_id: Option<i64>,
    /// Its space; none: its owner's personal space.
    pub space_id: Option<i64>,
    pub visibility: String,
    pub cjk: String,
    pub folder: String,
    /// A JSON array.
    pub tags: String,
    pub texts: Vec<TextRow>,
    pub revs: Vec<RevRow>,
    /// The document's files, by the names its text gives them.
    pub files: Vec<FileRow>,
    /// The file it was imported from (`tomatoes.md`).
    pub file_name: Option<String>,
}

impl DocRows {
    pub fn revisions(&self) -> usize {
        self.revs.len()
    }

    /// Roughly the memory it holds: its texts, page and stored history (its
    /// files' contents are never held with it).
    pub fn bytes(&self) -> usize {
        self.title.len()
            + self.body.len()
            + self.html.len()
            + self.cjk.len()
            + self.texts.iter().map(|t| t.data.len()).sum::<usize>()
    }
}

/// A file of a document being imported: its name in the document and its
/// content's SHA-256. The content itself is put by the caller
/// (`attachments::put_content`), one at a time, in the same transaction before
/// `insert`, so a document's files are never all in memory at once.
#[derive(Debug, Clone)]
pub struct FileRow {
    pub name: String,
    pub hash: Vec<u8>,
}

pub struct TextRow {
    pub hash: Vec<u8>,
    pub base: Option<Vec<u8>>,
    pub depth: i64,
    pub raw_size: i64,
    pub data: Vec<u8>,
}

pub struct RevRow {
    pub rev: i64,
    pub title: String,
    pub hash: Vec<u8>,
    pub size: i64,
    pub added: i64,
    pub removed: i64,
    pub author: Option<String>,
    pub created_at: i64,
    pub folder: String,
    /// A JSON array.
    pub tags: String,
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

/// Documents one multi-row `INSERT` takes (their texts and revisions: twice
/// as many rows). 128 rather than 64: the import's writer hands SQLite half
/// the statements, 1.02–1.15× the documents a second (docs/PERFORMANCE.md).
pub const ROWS_PER_INSERT: usize = 128;

/// A multi-row `INSERT`. SQLite gets nameless `?`s, bound in order: for a
/// named one (`$7`) the driver asks SQLite for each parameter's name, and
/// SQLite finds it by walking the list of names, so a statement of 64 rows
/// paid for every value once per value (4 % of an import's time, perf).
fn insert_sql(table: &str, columns: &str, width: usize, rows: usize, sqlite: bool) -> String {
    let values: Vec<String> = (0..rows)
        .map(|r| {
            let row: Vec<String> = (1..=width)
                .map(|c| match sqlite {
                    true => "?".to_owned(),
                    false => format!("${}", r * width + c),
                })
                .collect();
            format!("({})", row.join(","))
        })
        .collect();
    format!(
        "INSERT INTO {table} ({columns}) VALUES {}",
        values.join(",")
    )
}

/// Inserts every document with its history and names its files, in the
/// caller's transaction, which already holds their contents (a file's time is
/// its document's last change).
pub async fn insert(conn: &impl crate::db::Conn, docs: &[DocRows]) -> Result<(), crate::db::Error> {
    let last: i64 = crate::db::query_scalar("SELECT coalesce(max(seq), 0) FROM documents")
        .fetch_one(conn)
        .await?;
    let seqs: Vec<i64> = (1..=docs.len() as i64).map(|i| last + i).collect();
    let sqlite = !crate::db::is_postgres(conn);
    for (chunk, seqs) in docs
        .chunks(ROWS_PER_INSERT)
        .zip(seqs.chunks(ROWS_PER_INSERT))
    {
        let sql = insert_sql(
            "documents",
            "seq, id, title, size, body, html, html_z, render_version, version, \
             created_at, updated_at, cjk, owner_id, visibility, folder, tags, links, file_name, space_id, \
             aliases",
            20,
            chunk.len(),
            sqlite,
        );
        let mut q = crate::db::query(sql);
        for (d, seq) in chunk.iter().zip(seqs) {
            q = q
                .bind(seq)
                .bind(&d.id)
                .bind(&d.title)
                .bind(d.body.len() as i64)
                .bind(&d.body)
                .bind("")
                .bind(d.html.bytes())
                .bind(d.render_version)
                .bind(d.version)
                .bind(d.created_at)
                .bind(d.updated_at)
                .bind(&d.cjk)
                .bind(d.owner_id)
                .bind(&d.visibility)
                .bind(&d.folder)
                .bind(&d.tags)
                .bind(d.html.links())
                .bind(d.file_name.as_deref())
                .bind(d.space_id)
                .bind(d.html.aliases());
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
            sqlite,
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
            "doc_seq, rev, title, text_hash, size, added, removed, author, created_at, folder, tags",
            11,
            chunk.len(),
            sqlite,
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
                .bind(r.created_at)
                .bind(&r.folder)
                .bind(&r.tags);
        }
        q.execute(conn).await?;
    }
    for (d, seq) in docs.iter().zip(&seqs) {
        for f in &d.files {
            super::attachments::name_file(conn, *seq, &f.name, &f.hash, d.updated_at).await?;
        }
    }
    crate::db::sync_identity(conn, "documents", "seq").await
}
