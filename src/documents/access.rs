//! Who may do what with a document, decided in one place. Every domain operation
//! asks `authorize` (or lists filter with `db::documents::visible`) before it touches a row.
//! The caller is named: a signed-in person, or quire itself (the command line,
//! the indexer, migrations), which has full access; no default stands for
//! either. A document with no owner (imported before there was an admin) is
//! open to every signed-in user to read and edit, but owner acts (share,
//! publish, delete) need an owner.

use super::{DocError, DocId, Document};
use crate::db::Db;
use crate::db::documents::revisions::StoredTexts;
use crate::db::documents::shares;
use crate::db::teams::spaces::Who;

pub use crate::db::documents::Access;

/// Who is acting: recorded as a document's owner and on each revision.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    pub user_id: i64,
    pub name: &'a str,
}

/// Who asks for a document operation. `Quire` is quire itself, with full
/// access: the command line and background work name it; the web layer may
/// not (`scripts/check-layers.sh` refuses it there), so a handler cannot skip
/// a check by passing the wrong default.
#[derive(Clone, Copy, Debug)]
pub enum Caller<'a> {
    Person(Actor<'a>),
    Quire,
}

impl<'a> Caller<'a> {
    /// The person asking, if it is one.
    pub fn person(self) -> Option<Actor<'a>> {
        match self {
            Self::Person(a) => Some(a),
            Self::Quire => None,
        }
    }
}

impl<'a> From<Actor<'a>> for Caller<'a> {
    fn from(a: Actor<'a>) -> Self {
        Self::Person(a)
    }
}

/// The viewer's id as the access statement takes it: none for quire itself.
pub fn viewer(caller: Caller<'_>) -> Option<i64> {
    caller.person().map(|a| a.user_id)
}

/// The document if `actor` has at least `need` on it. A document the actor may
/// not even read is reported as missing, so ids reveal nothing.
pub async fn authorize(
    ex: &impl crate::db::Conn,
    id: &DocId,
    actor: Caller<'_>,
    need: Access,
) -> Result<Document, DocError> {
    let found = crate::db::documents::find_with_access(ex, id.as_str(), viewer(actor)).await?;
    check(found, need)
}

/// Like `authorize`, for a save: the document's text and version without its
/// page or who else reads it (`Document::html` is empty), by the same rule,
/// and what its stored texts say of the new text (hashed `new_text`).
pub async fn authorize_text(
    ex: &impl crate::db::Conn,
    id: &DocId,
    (actor, need): (Caller<'_>, Access),
    new_text: Vec<u8>,
) -> Result<(Document, StoredTexts), DocError> {
    let found =
        crate::db::documents::find_text_with_access(ex, id.as_str(), viewer(actor), new_text)
            .await?;
    let (doc, stored) = found.map_or((None, StoredTexts::default()), |(d, s)| (Some(d), s));
    Ok((check(doc, need)?, stored))
}

/// Like `authorize`, for a document that is not in the trash: one there is
/// reported as missing (its comments and suggestions are not to be had).
pub async fn authorize_live(
    ex: &impl crate::db::Conn,
    id: &DocId,
    actor: Actor<'_>,
    need: Access,
) -> Result<Document, DocError> {
    let doc = authorize(ex, id, Caller::Person(actor), need).await?;
    if doc.deleted_at.is_some() {
        return Err(DocError::NotFound);
    }
    Ok(doc)
}

/// The verdict on a document fetched with its `access` level computed.
pub fn check(found: Option<Document>, need: Access) -> Result<Document, DocError> {
    let doc = found.ok_or(DocError::NotFound)?;
    match doc.access {
        have if !have.may_read() => Err(DocError::NotFound),
        have if have < need => Err(DocError::Forbidden),
        _ => Ok(doc),
    }
}

pub use crate::db::documents::shares::Share;

pub async fn shares(db: &Db, doc_seq: i64) -> Result<Vec<Share>, crate::db::Error> {
    crate::db::documents::shares::list(&db.read, doc_seq).await
}

/// The groups a document is shared with: (group id, name, may edit).
pub async fn group_shares(
    db: &Db,
    doc_seq: i64,
) -> Result<Vec<(i64, String, i64)>, crate::db::Error> {
    crate::db::teams::groups::shares(&db.read, doc_seq).await
}

/// A person's or group's name as typed to look one up (to share with, to make
/// a member): trimmed; one that no account or group could have (empty, over
/// 200 characters, a control character, which PostgreSQL would refuse to
/// compare) is said to be nobody's.
pub fn looked_up(name: &str) -> Result<&str, DocError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(DocError::Invalid(format!(
            "There is no person or group called {name:?}."
        )));
    }
    Ok(name)
}

/// What the owner can change about who sees a document.
pub enum Change<'a> {
    Visibility(&'a str),
    Share { username: &'a str, can_edit: bool },
    Unshare { user_id: i64 },
    UnshareGroup { group_id: i64 },
    PublicLink(bool),
}

pub async fn change(
    db: &Db,
    id: &DocId,
    actor: Caller<'_>,
    change: Change<'_>,
) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = authorize(&*tx, id, actor, Access::Own).await?;
    let detail = match change {
        Change::Visibility(v) => {
            if !matches!(v, "private" | "read" | "edit") {
                return Err(DocError::Invalid(format!("Unknown visibility {v:?}.")));
            }
            shares::set_visibility(&*tx, doc.seq, v).await?;
            format!("{} visibility {v}", doc.id)
        }
        Change::Share { username, can_edit } => {
            let name = looked_up(username)?;
            let nobody =
                || DocError::Invalid(format!("There is no person or group called {name:?}."));
            let whom = match crate::db::accounts::id_by_name(&*tx, name).await? {
                Some(user) => {
                    shares::put(&*tx, doc.seq, user, can_edit).await?;
                    Who::Person(user)
                }
                None => {
                    let group = crate::db::teams::groups::id_by_name(&*tx, name).await?;
                    let group = group.ok_or_else(nobody)?;
                    crate::db::teams::groups::share(&*tx, doc.seq, group, can_edit).await?;
                    Who::Group(group)
                }
            };
            if let Some(by) = actor.person() {
                let now = crate::clock::now_ms();
                crate::db::notices::queue::shared(&*tx, doc.seq, whom, by.user_id, now).await?;
            }
            format!(
                "{} shared with {} ({})",
                doc.id,
                username.trim(),
                if can_edit { "edit" } else { "read" }
            )
        }
        Change::Unshare { user_id } => {
            shares::remove(&*tx, doc.seq, user_id).await?;
            format!("{} unshared from user {user_id}", doc.id)
        }
        Change::UnshareGroup { group_id } => {
            crate::db::teams::groups::unshare(&*tx, doc.seq, group_id).await?;
            format!("{} unshared from group {group_id}", doc.id)
        }
        Change::PublicLink(on) => {
            let token = on.then(crate::random::random_token);
            shares::set_public_token(&*tx, doc.seq, token.as_deref()).await?;
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
    let doc = crate::db::documents::find_public(&db.read, token)
        .await?
        .ok_or(DocError::NotFound)?;
    super::fresh_html(db, doc).await
}
