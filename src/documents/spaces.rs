//! A space's roles and where a new document goes: what creating a document
//! needs of spaces, here so that `documents` does not reach up into `teams`
//! (which manages spaces and re-exports these).

use super::{DocError, InSpace};
use crate::db::Db;
use crate::db::teams::spaces as stored;

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
