//! Who may do what with a document, decided in one place. Every domain operation
//! asks `authorize` (or filters lists with `VISIBLE`) before it touches a row.
//! `actor = None` is quire itself (command-line tools): full access. A document
//! with no owner (imported before there was an admin) is open to every signed-in
//! user to read and edit, but owner acts (share, publish, delete) need an owner.

use super::{DocError, DocId, Document};
use crate::db::Db;

/// Who is acting: recorded as a document's owner and on each revision.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    pub user_id: i64,
    pub name: &'a str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    None = 0,
    Read = 1,
    Edit = 2,
    /// Delete, restore, share, publish.
    Own = 3,
}

impl Access {
    fn from_level(n: i64) -> Self {
        match n {
            3.. => Self::Own,
            2 => Self::Edit,
            1 => Self::Read,
            _ => Self::None,
        }
    }
}

/// The viewer's access to `documents` rows, with the viewer's id as `$2`.
const ACCESS_SQL: &str = "CASE
    WHEN $2 IS NULL OR owner_id = $2 THEN 3
    WHEN owner_id IS NULL OR visibility = 'edit' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2 AND s.can_edit = 1) THEN 2
    WHEN visibility = 'read' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2) THEN 1
    ELSE 0 END";

/// Who else sees a document, as two columns: how many people it is shared with
/// by name, and its owner's name; `doc` names the documents table or its alias.
pub fn sharing_columns(doc: &str) -> String {
    format!(
        "(SELECT COUNT(*) FROM document_shares sw WHERE sw.doc_seq = {doc}.seq) AS shared_with,
         (SELECT username FROM users ow WHERE ow.id = {doc}.owner_id) AS owner_name"
    )
}

/// A `WHERE` condition for listings and search: rows the viewer (`?V`, replaced by
/// the caller's placeholder) may read. `d` is the documents alias.
pub fn visible(viewer_param: &str) -> String {
    format!(
        "({v} IS NULL OR d.owner_id IS NULL OR d.owner_id = {v} OR d.visibility <> 'private'
          OR EXISTS (SELECT 1 FROM document_shares s WHERE s.doc_seq = d.seq AND s.user_id = {v}))",
        v = viewer_param
    )
}

/// Rows the viewer owns (the trash shows, and emptying it deletes, only these).
pub fn owned(viewer_param: &str) -> String {
    format!("({v} IS NULL OR d.owner_id = {v})", v = viewer_param)
}

pub fn viewer(actor: Option<Actor<'_>>) -> Option<i64> {
    actor.map(|a| a.user_id)
}

/// The document if `actor` has at least `need` on it. A document the actor may
/// not even read is reported as missing, so ids reveal nothing.
pub async fn authorize(
    ex: &impl crate::db::Conn,
    id: &DocId,
    actor: Option<Actor<'_>>,
    need: Access,
) -> Result<Document, DocError> {
    let found: Option<Document> = crate::db::query_as::<Document>(format!(
        "SELECT {}, {ACCESS_SQL} AS access, {} FROM documents WHERE id = $1",
        super::row::COLUMNS,
        sharing_columns("documents")
    ))
    .bind(id.as_str())
    .bind(viewer(actor))
    .fetch_optional(ex)
    .await?;
    check(found, need)
}

/// The verdict on a document fetched with its `access` level computed.
pub fn check(found: Option<Document>, need: Access) -> Result<Document, DocError> {
    let doc = found.ok_or(DocError::NotFound)?;
    match Access::from_level(doc.access) {
        Access::None => Err(DocError::NotFound),
        have if have < need => Err(DocError::Forbidden),
        _ => Ok(doc),
    }
}

/// Columns of a document and the viewer's `access` to it, for a query that joins
/// `documents` to a row naming the viewer's id as `viewer_expr` (one round trip
/// for the session and the page, see `accounts::session_user_with_document`).
pub fn document_with_access(viewer_expr: &str) -> String {
    format!(
        "{}, {} AS access, {}",
        super::row::COLUMNS
            .split(", ")
            .map(|c| format!("documents.{c}"))
            .collect::<Vec<_>>()
            .join(", "),
        ACCESS_SQL.replace("$2", viewer_expr),
        sharing_columns("documents")
    )
}

#[derive(Debug, Clone)]
pub struct Share {
    pub user_id: i64,
    pub username: String,
    pub can_edit: bool,
}
crate::db::from_row!(Share {
    user_id,
    username,
    can_edit
});

pub async fn shares(db: &Db, doc_seq: i64) -> Result<Vec<Share>, crate::db::Error> {
    crate::db::query_as(
        "SELECT s.user_id, u.username, s.can_edit FROM document_shares s
         JOIN users u ON u.id = s.user_id WHERE s.doc_seq = $1 ORDER BY u.username",
    )
    .bind(doc_seq)
    .fetch_all(&db.read)
    .await
}

/// What the owner can change about who sees a document.
pub enum Change<'a> {
    Visibility(&'a str),
    Share { username: &'a str, can_edit: bool },
    Unshare { user_id: i64 },
    PublicLink(bool),
}

pub async fn change(
    db: &Db,
    id: &DocId,
    actor: Option<Actor<'_>>,
    change: Change<'_>,
) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = authorize(&*tx, id, actor, Access::Own).await?;
    let detail = match change {
        Change::Visibility(v) => {
            if !matches!(v, "private" | "read" | "edit") {
                return Err(DocError::Invalid(format!("Unknown visibility {v:?}.")));
            }
            crate::db::query("UPDATE documents SET visibility = $1 WHERE seq = $2")
                .bind(v)
                .bind(doc.seq)
                .execute(&*tx)
                .await?;
            format!("{} visibility {v}", doc.id)
        }
        Change::Share { username, can_edit } => {
            let user: Option<i64> =
                crate::db::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
                    .bind(username.trim())
                    .fetch_optional(&*tx)
                    .await?;
            let user = user.ok_or_else(|| {
                DocError::Invalid(format!("There is no user called {:?}.", username.trim()))
            })?;
            crate::db::query(
                "INSERT INTO document_shares (doc_seq, user_id, can_edit) VALUES ($1, $2, $3)
                 ON CONFLICT (doc_seq, user_id) DO UPDATE SET can_edit = excluded.can_edit",
            )
            .bind(doc.seq)
            .bind(user)
            .bind(i64::from(can_edit))
            .execute(&*tx)
            .await?;
            format!(
                "{} shared with {} ({})",
                doc.id,
                username.trim(),
                if can_edit { "edit" } else { "read" }
            )
        }
        Change::Unshare { user_id } => {
            crate::db::query("DELETE FROM document_shares WHERE doc_seq = $1 AND user_id = $2")
                .bind(doc.seq)
                .bind(user_id)
                .execute(&*tx)
                .await?;
            format!("{} unshared from user {user_id}", doc.id)
        }
        Change::PublicLink(on) => {
            let token = on.then(crate::random::random_token);
            crate::db::query("UPDATE documents SET public_token = $1 WHERE seq = $2")
                .bind(token)
                .bind(doc.seq)
                .execute(&*tx)
                .await?;
            format!(
                "{} public link {}",
                doc.id,
                if on { "created" } else { "revoked" }
            )
        }
    };
    crate::db::audit(&tx, viewer(actor), "permission.changed", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// A live document by its public link token.
pub async fn find_public(db: &Db, token: &str) -> Result<Document, DocError> {
    if token.len() != 64 {
        return Err(DocError::NotFound);
    }
    let doc = crate::db::query_as(format!(
        "SELECT {} FROM documents WHERE public_token = $1 AND deleted_at IS NULL",
        super::row::COLUMNS
    ))
    .bind(token)
    .fetch_optional(&db.read)
    .await?
    .ok_or(DocError::NotFound)?;
    super::fresh_html(db, doc).await
}
