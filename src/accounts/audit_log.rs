//! The audit log as an administrator reads it: who acted (a person, or quire
//! itself), and the document a sharing event is about, named only to an
//! administrator who may read it (being an admin is not a read right).

use std::collections::HashMap;

use super::User;
use crate::db::Db;
use crate::documents::DocId;

/// Who makes an account; the log's `user.created` entry names them.
#[derive(Clone, Copy, Debug)]
pub enum Creator<'a> {
    /// An administrator, on the users page.
    Admin(&'a User),
    /// The person themselves, at /signup (when sign-up is open).
    SignUp,
    /// The person holding the setup link: the first administrator.
    SetupLink,
    /// quire itself: `quire user add` (and the fixtures of tests and benches).
    CommandLine,
}

/// How the detail of a `user.created` entry ends when quire itself made the
/// account: entries without a person (`user_id` NULL) are otherwise from before
/// quire noted the creator, or by an account since deleted.
const FROM_THE_COMMAND_LINE: &str = ", from the command line";

impl Creator<'_> {
    /// The person the entry names as acting: the administrator, or the new
    /// account's holder, who made it themselves.
    pub(super) fn actor(&self, created: &User) -> Option<i64> {
        match self {
            Self::Admin(admin) => Some(admin.id),
            Self::SignUp | Self::SetupLink => Some(created.id),
            Self::CommandLine => None,
        }
    }

    pub(super) fn detail(&self, created: &User) -> String {
        let role = if created.is_admin {
            ", an administrator"
        } else {
            ""
        };
        let how = match self {
            Self::Admin(_) => "",
            Self::SignUp => ", by signing up",
            Self::SetupLink => ", with the setup link",
            Self::CommandLine => FROM_THE_COMMAND_LINE,
        };
        format!("{}{role}{how}", created.username)
    }
}

/// Who an entry says acted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    Person(String),
    /// quire itself (the command line).
    Quire,
    /// Not known: no account (a failed sign-in as nobody), an account since
    /// deleted, or an account made before quire noted who made it.
    Unknown,
}

/// The document a sharing event is about, as the viewing administrator may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named {
    Readable {
        id: String,
        title: String,
    },
    /// It exists, but the viewer may not read it: its title stays secret.
    Unreadable {
        id: String,
    },
    /// Deleted for good since.
    Gone {
        id: String,
    },
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub at: i64,
    pub who: Who,
    pub event: String,
    /// For a sharing event, its document; `detail` is then the rest of the text.
    pub document: Option<Named>,
    pub detail: String,
}

/// The event whose detail starts with the id of the document it changed.
const SHARING: &str = "permission.changed";

/// The newest `limit` entries, newest first, as `viewer` may see them.
pub async fn recent(db: &Db, viewer: &User, limit: i64) -> Result<Vec<Entry>, crate::db::Error> {
    let rows = super::manage::audit_log(db, limit).await?;
    let split = |event: &str, detail: &str| -> Option<(DocId, usize)> {
        let head = detail.split(' ').next().filter(|_| event == SHARING)?;
        DocId::parse(head).map(|id| (id, head.len()))
    };
    let ids: Vec<DocId> = rows
        .iter()
        .filter_map(|r| split(&r.event, &r.detail).map(|(id, _)| id))
        .collect();
    let mut wanted: Vec<&str> = ids.iter().map(DocId::as_str).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let titles: HashMap<String, Option<String>> =
        crate::db::document_titles(&db.read, &wanted, viewer.id).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let who = match r.username {
                Some(name) => Who::Person(name),
                None if r.event == "user.created" && r.detail.ends_with(FROM_THE_COMMAND_LINE) => {
                    Who::Quire
                }
                None => Who::Unknown,
            };
            let (document, detail) = match split(&r.event, &r.detail) {
                Some((id, end)) => {
                    let id = id.as_str().to_owned();
                    let named = match titles.get(&id) {
                        Some(Some(title)) => Named::Readable {
                            id,
                            title: title.clone(),
                        },
                        Some(None) => Named::Unreadable { id },
                        None => Named::Gone { id },
                    };
                    (Some(named), r.detail[end..].to_owned())
                }
                None => (None, r.detail),
            };
            Entry {
                at: r.at,
                who,
                event: r.event,
                document,
                detail,
            }
        })
        .collect())
}
