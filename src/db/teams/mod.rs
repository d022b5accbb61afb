//! Team spaces, groups and invitations as stored: who is a member of what, with
//! which role. What a role allows is decided in `db::documents::access` (as SQL)
//! and `crate::teams` (as rules).

pub mod groups;
pub mod invitations;
pub mod spaces;

/// A space's or a group's member as listed: a person or a group, by name.
#[derive(Debug, Clone)]
pub struct Member {
    /// The `space_members` row (for a group's members: the person's id).
    pub id: i64,
    pub name: String,
    /// True for a group.
    pub is_group: bool,
    /// 1 read, 2 edit, 3 manage (a group's members: 0).
    pub role: i64,
}
crate::db::from_row!(Member {
    id,
    name,
    is_group,
    role
});
