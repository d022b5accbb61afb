//! Teams: spaces (named shared places with members and roles), groups of
//! people, invitations. Who may manage what is decided here; who may read or
//! edit a document is `documents::access` (one rule, with spaces in it).

pub mod cli;
pub mod groups;
pub mod invitations;
pub mod moves;
pub mod portable;
pub mod spaces;

pub use crate::db::teams::Member;
pub use crate::db::teams::groups::GroupRow;
pub use crate::db::teams::spaces::SpaceRow;

use crate::db::Db;
use crate::db::teams::spaces as stored;
use crate::documents::{DocError, InSpace};

/// A member's role in a space: each allows what the ones below it do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Read = 1,
    Edit = 2,
    /// Change the space's name, members and settings; move documents out.
    Manage = 3,
}

impl Role {
    pub fn from_level(n: i64) -> Option<Self> {
        match n {
            1 => Some(Self::Read),
            2 => Some(Self::Edit),
            3 => Some(Self::Manage),
            _ => None,
        }
    }

    /// From a form or the API: `read`, `edit` or `manage`.
    pub fn parse(s: &str) -> Result<Self, DocError> {
        match s.trim() {
            "read" => Ok(Self::Read),
            "edit" => Ok(Self::Edit),
            "manage" => Ok(Self::Manage),
            other => Err(DocError::Invalid(format!(
                "Unknown role {other:?}: choose read, edit or manage."
            ))),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Edit => "edit",
            Self::Manage => "manage",
        }
    }

    pub fn level(self) -> i64 {
        self as i64
    }
}

/// Who is managing: a signed-in person, and whether they are an admin.
#[derive(Clone, Copy, Debug)]
pub struct Manager<'a> {
    pub user_id: i64,
    pub name: &'a str,
    pub is_admin: bool,
}

/// A space or group name: 1 to 80 characters, trimmed, no control characters.
pub fn check_name(name: &str, what: &str) -> Result<String, DocError> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > 80 || name.chars().any(char::is_control) {
        return Err(DocError::Invalid(format!(
            "A {what} name is 1 to 80 characters."
        )));
    }
    Ok(name.to_owned())
}

/// A taken name as the person is told it; other errors as they are.
fn taken(e: crate::db::Error, what: &str, name: &str) -> DocError {
    if crate::db::is_unique_violation(&e) {
        DocError::Invalid(format!("There is already a {what} called {name:?}."))
    } else {
        e.into()
    }
}

/// Where a new document of `user`'s goes: the space asked for (they must be
/// able to edit there), else where they last made one, else the first team
/// space every new account joins, else their personal space.
pub async fn space_for_new(
    db: &Db,
    user: i64,
    asked: Option<InSpace>,
) -> Result<Option<i64>, DocError> {
    match asked {
        Some(InSpace::Personal) => return Ok(None),
        Some(InSpace::Id(id)) => {
            return match Role::from_level(stored::role(&db.read, id, user).await?) {
                Some(role) if role >= Role::Edit => Ok(Some(id)),
                Some(_) => Err(DocError::Invalid(
                    "You may read that space but not write in it.".into(),
                )),
                None => Err(DocError::Invalid("There is no such space.".into())),
            };
        }
        None => {}
    }
    if let Some(last) = stored::last_written(&db.read, user).await? {
        return Ok(last);
    }
    let spaces = stored::list(&db.read, user, false).await?;
    Ok(spaces
        .iter()
        .find(|s| s.default_role.is_some() && s.role >= Role::Edit.level())
        .or_else(|| spaces.iter().find(|s| s.role >= Role::Edit.level()))
        .map(|s| s.id))
}
