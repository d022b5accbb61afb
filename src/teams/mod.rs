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
pub use crate::documents::spaces::{Role, space_for_new};

use crate::documents::DocError;

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
