//! Files attached to documents: each distinct content once in `attachments`
//! (by SHA-256), named by each document that uses it in `document_files`.
//! Whether a reader may have a file is the document's access (the domain's,
//! in `documents::attachments`).

use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use crate::db::Conn;
use crate::db::entity::{attachments, document_files};

/// A document's file, without its bytes.
#[derive(Debug, Clone)]
pub struct FileInfo {
    pub name: String,
    pub hash: Vec<u8>,
    pub size: i64,
    pub media_type: String,
    pub created_at: i64,
}
crate::db::from_row!(FileInfo {
    name,
    hash,
    size,
    media_type,
    created_at
});

/// Keeps `bytes` (unless that content is already kept).
pub async fn put_content(
    conn: &impl Conn,
    hash: &[u8],
    media_type: &str,
    bytes: &[u8],
    now: i64,
) -> Result<(), crate::db::Error> {
    let row = attachments::ActiveModel {
        hash: Set(hash.to_vec()),
        size: Set(bytes.len() as i64),
        media_type: Set(media_type.to_owned()),
        bytes: Set(bytes.to_vec()),
        created_at: Set(now),
    };
    attachments::Entity::insert(row)
        .on_conflict(
            OnConflict::column(attachments::Column::Hash)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

/// Names the kept content `hash` `name` in the document (unless it already
/// has a file of that name).
pub async fn name_file(
    conn: &impl Conn,
    doc_seq: i64,
    name: &str,
    hash: &[u8],
    now: i64,
) -> Result<(), crate::db::Error> {
    let row = document_files::ActiveModel {
        doc_seq: Set(doc_seq),
        name: Set(name.to_owned()),
        hash: Set(hash.to_vec()),
        created_at: Set(now),
    };
    document_files::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([document_files::Column::DocSeq, document_files::Column::Name])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

const INFO: &str = "SELECT f.name, f.hash, a.size, a.media_type, f.created_at
     FROM document_files AS f JOIN attachments AS a ON a.hash = f.hash";

/// The document's file called `name`.
pub async fn find(
    ex: &impl Conn,
    doc_seq: i64,
    name: &str,
) -> Result<Option<FileInfo>, crate::db::Error> {
    crate::db::query_as(format!("{INFO} WHERE f.doc_seq = $1 AND f.name = $2"))
        .bind(doc_seq)
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// The file `name` of the live document `doc_id` when `viewer` may read that
/// document (no viewer: quire itself), in one statement that reads neither the
/// document's text nor the file's bytes.
pub async fn find_readable(
    ex: &impl Conn,
    doc_id: &str,
    viewer: Option<i64>,
    name: &str,
) -> Result<Option<FileInfo>, crate::db::Error> {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT f.name, f.hash, a.size, a.media_type, f.created_at
               FROM documents
               JOIN document_files AS f ON f.doc_seq = documents.seq
               JOIN attachments AS a ON a.hash = f.hash
              WHERE documents.id = $1 AND f.name = $3 AND documents.deleted_at IS NULL
                AND {} >= 1",
            super::access::level("$2")
        )
    });
    crate::db::query_as(SQL.as_str())
        .bind(doc_id)
        .bind(viewer)
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// The document's files, by name.
pub async fn list(ex: &impl Conn, doc_seq: i64) -> Result<Vec<FileInfo>, crate::db::Error> {
    crate::db::query_as(format!("{INFO} WHERE f.doc_seq = $1 ORDER BY f.name"))
        .bind(doc_seq)
        .fetch_all(ex)
        .await
}

/// A file of one of several documents, without its bytes (for exports).
#[derive(Debug, Clone)]
pub struct DocFile {
    pub doc_seq: i64,
    pub name: String,
    pub hash: Vec<u8>,
    pub size: i64,
}
crate::db::from_row!(DocFile {
    doc_seq,
    name,
    hash,
    size
});

/// The files of the documents `doc_seqs`, by document and then by name.
pub async fn of_documents(
    ex: &impl Conn,
    doc_seqs: &[i64],
) -> Result<Vec<DocFile>, crate::db::Error> {
    let mut found = Vec::new();
    for chunk in doc_seqs.chunks(500) {
        let list: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT f.doc_seq, f.name, f.hash, a.size
               FROM document_files AS f JOIN attachments AS a ON a.hash = f.hash
              WHERE f.doc_seq IN ({})",
            list.join(",")
        );
        let mut q = crate::db::query_as::<DocFile>(sql);
        for seq in chunk {
            q = q.bind(*seq);
        }
        found.extend(q.fetch_all(ex).await?);
    }
    // Sorted here, not by the database: names compare byte by byte whatever
    // the engine's collation.
    found.sort_by(|a, b| (a.doc_seq, a.name.as_bytes()).cmp(&(b.doc_seq, b.name.as_bytes())));
    Ok(found)
}

/// The bytes of a kept content.
pub async fn content(ex: &impl Conn, hash: &[u8]) -> Result<Option<Vec<u8>>, crate::db::Error> {
    let bytes: Option<Vec<u8>> = attachments::Entity::find_by_id(hash.to_vec())
        .select_only()
        .column(attachments::Column::Bytes)
        .into_tuple()
        .one(ex.sea())
        .await?;
    Ok(bytes)
}

/// Takes the name `name` off the document; false when it had no such file.
pub async fn unname(conn: &impl Conn, doc_seq: i64, name: &str) -> Result<bool, crate::db::Error> {
    let done = document_files::Entity::delete_many()
        .filter(document_files::Column::DocSeq.eq(doc_seq))
        .filter(document_files::Column::Name.eq(name))
        .exec(conn.sea())
        .await?;
    Ok(done.rows_affected > 0)
}

/// Deletes every kept content no document names any more; how many. Each
/// content is looked up in the names' index by its hash.
pub async fn collect_unnamed(conn: &impl Conn) -> Result<u64, crate::db::Error> {
    let done = crate::db::query(
        "DELETE FROM attachments WHERE NOT EXISTS
            (SELECT 1 FROM document_files AS f WHERE f.hash = attachments.hash)",
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Bytes the user's documents (in the trash too) keep in files, each distinct
/// content once.
pub async fn owner_total(ex: &impl Conn, user_id: i64) -> Result<i64, crate::db::Error> {
    crate::db::query_scalar(
        "SELECT CAST(COALESCE(SUM(a.size), 0) AS BIGINT) FROM attachments AS a
          WHERE a.hash IN (SELECT f.hash FROM document_files AS f
                             JOIN documents AS d ON d.seq = f.doc_seq
                            WHERE d.owner_id = $1)",
    )
    .bind(user_id)
    .fetch_one(ex)
    .await
}
