//! Files attached to a document: kept inline in the database, each distinct
//! content once (by SHA-256), served at `/d/{id}/files/{name}` to whoever may
//! read the document and to nobody else. A page names its files by name
//! (`![](photo.png)`, `![[photo.png]]`); the renderer points such images at
//! that address (`render`).

pub use super::file_names::*;
use super::{Access, Caller, DocError, DocId, access, now_ms};
use crate::db::Db;
use crate::db::documents::attachments as store;
pub use crate::db::documents::attachments::FileInfo;

/// What an upload became.
#[derive(Debug, Clone)]
pub struct Attached {
    pub name: String,
    /// SHA-256 of the bytes.
    pub hash: Vec<u8>,
    pub url: String,
    pub markdown: String,
    pub size: i64,
    pub media_type: String,
}

/// Keeps `bytes` as a file of the document, for an actor who may edit it. A
/// name the document already gives other content is numbered (`photo-2.png`);
/// the same content under the same name is the same file.
pub async fn attach(
    db: &Db,
    id: &DocId,
    actor: Caller<'_>,
    given_name: &str,
    bytes: Vec<u8>,
    cap: usize,
) -> Result<Attached, DocError> {
    if bytes.len() > cap {
        return Err(DocError::TooLarge {
            size: bytes.len(),
            cap,
        });
    }
    if bytes.is_empty() {
        return Err(DocError::Invalid(
            "The file is empty; nothing was attached.".into(),
        ));
    }
    let media_type = sniff(&bytes);
    let base = clean_name(given_name);
    let (hash, size) = (sha256(&bytes), bytes.len() as i64);
    let now = now_ms();
    let tx = db.begin_write().await?;
    // Decided inside the write: a document trashed or purged meanwhile takes nothing.
    let doc = live(&*tx, id, actor, Access::Edit).await?;
    let mut n = 1;
    let name = loop {
        let name = numbered(&base, n);
        match store::find(&*tx, doc.seq, &name).await? {
            Some(f) if f.hash != hash => n += 1,
            _ => break name,
        }
    };
    store::put_content(&*tx, &hash, media_type, &bytes, now).await?;
    store::name_file(&*tx, doc.seq, &name, &hash, now).await?;
    tx.commit().await?;
    Ok(Attached {
        url: url(&doc.id, &name),
        markdown: markdown(&doc.id, &name, media_type),
        name,
        hash,
        size,
        media_type: media_type.to_owned(),
    })
}

/// A live document the actor has `need` on (as `conn` sees it).
async fn live(
    conn: &impl crate::db::Conn,
    id: &DocId,
    actor: Caller<'_>,
    need: Access,
) -> Result<crate::db::documents::Document, DocError> {
    let doc = access::authorize(conn, id, actor, need).await?;
    match doc.deleted_at {
        Some(_) => Err(DocError::NotFound),
        None => Ok(doc),
    }
}

/// Refuses early, before an upload is read: the actor may not attach to it.
pub async fn check_editable(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<(), DocError> {
    live(&db.read, id, actor, Access::Edit).await.map(|_| ())
}

/// Takes the file `name` off the document (for an actor who may edit it); its
/// content goes too when no document has it any more. The text is left as it
/// is: an image naming the file shows nothing from then on.
pub async fn detach(db: &Db, id: &DocId, actor: Caller<'_>, name: &str) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = live(&*tx, id, actor, Access::Edit).await?;
    if !store::unname(&*tx, doc.seq, name).await? {
        return Err(DocError::NotFound);
    }
    store::collect_unnamed(&*tx).await?;
    tx.commit().await?;
    Ok(())
}

/// The document's file called `name`, for an actor who may read the live
/// document. Anyone else, or in the trash: not found.
pub async fn find(
    db: &Db,
    id: &DocId,
    actor: Caller<'_>,
    name: &str,
) -> Result<FileInfo, DocError> {
    store::find_readable(&db.read, id.as_str(), access::viewer(actor), name)
        .await?
        .ok_or(DocError::NotFound)
}

/// A public page's file called `name`, to anyone with the page's link.
pub async fn find_public(db: &Db, token: &str, name: &str) -> Result<FileInfo, DocError> {
    let doc = access::find_public(db, token).await?;
    let id = DocId::parse(&doc.id).ok_or(DocError::NotFound)?;
    find(db, &id, Caller::Quire, name).await
}

/// The document's files, by name, for an actor who may read it.
pub async fn list(db: &Db, id: &DocId, actor: Caller<'_>) -> Result<Vec<FileInfo>, DocError> {
    // A document in the trash shows none of its files.
    let doc = live(&db.read, id, actor, Access::Read).await?;
    Ok(store::list(&db.read, doc.seq).await?)
}

/// A kept content's bytes (found through `find`).
pub async fn content(db: &Db, file: &FileInfo) -> Result<Vec<u8>, DocError> {
    store::content(&db.read, &file.hash)
        .await?
        .ok_or(DocError::NotFound)
}

/// Bytes the user's documents keep in files.
pub async fn owner_total(db: &Db, user_id: i64) -> Result<i64, DocError> {
    Ok(store::owner_total(&db.read, user_id).await?)
}
