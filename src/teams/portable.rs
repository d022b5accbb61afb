//! Spaces and groups as an export carries them (its manifest) and an import
//! makes them again: each space with the role new accounts get and its members
//! by name, each group with its people. An export says only what its maker may
//! see: the members of the spaces they are in (quire itself: every space).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::Role;
use crate::db::Db;
use crate::db::teams::groups as stored_groups;
use crate::db::teams::spaces::{self as stored, Who};
use crate::documents::{DocError, now_ms};

/// A space as an export describes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SpaceOut {
    pub name: String,
    /// `read`, `edit` or `manage`: what every new account gets there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_role: Option<String>,
    #[serde(default)]
    pub members: Vec<MemberOut>,
}

/// A member of a space: a person's username or a group's name, and its role.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct MemberOut {
    pub name: String,
    #[serde(default)]
    pub group: bool,
    pub role: String,
}

/// A group and its people, by username.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct GroupOut {
    pub name: String,
    #[serde(default)]
    pub members: Vec<String>,
}

fn word(level: i64) -> String {
    Role::from_level(level)
        .map_or("read", Role::word)
        .to_owned()
}

/// The spaces `viewer` is a member of (none: quire itself, every space) with
/// their members, and the groups that are members of them with their people.
pub async fn describe(
    ex: &impl crate::db::Conn,
    viewer: Option<i64>,
) -> Result<(Vec<SpaceOut>, Vec<GroupOut>), crate::db::Error> {
    let ids: Vec<(i64, String)> = match viewer {
        Some(v) => stored::names(ex, v).await?,
        None => stored::all_names(ex).await?,
    };
    let mut spaces = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for (id, name) in ids {
        let default_role = stored::default_role(ex, id).await?.map(word);
        let members = stored::members(ex, id).await?;
        for m in members.iter().filter(|m| m.is_group) {
            if !groups.contains(&m.name) {
                groups.push(m.name.clone());
            }
        }
        spaces.push(SpaceOut {
            name,
            default_role,
            members: members
                .into_iter()
                .map(|m| MemberOut {
                    name: m.name,
                    group: m.is_group,
                    role: word(m.role),
                })
                .collect(),
        });
    }
    let mut out = Vec::new();
    for name in groups {
        if let Some(id) = stored_groups::id_by_name(ex, &name).await? {
            let members = stored_groups::members(ex, id).await?;
            out.push(GroupOut {
                name,
                members: members.into_iter().map(|m| m.name).collect(),
            });
        }
    }
    Ok((spaces, out))
}

/// What an import made: the spaces (by name, case aside) documents may go to,
/// and which of them it made.
#[derive(Debug, Default)]
pub struct Made {
    pub spaces: HashMap<String, i64>,
    pub new_spaces: Vec<String>,
}

/// Every space here by name, case aside, after making those of `spaces` (an
/// export's) and of `extra` (names alone: a vault's top folders) that are not
/// here yet. An export's space gets its members back where the people and
/// groups exist here (a missing group is made with those of its people who
/// have accounts); a top folder's space is open to every account to edit, as
/// the team space is. One transaction: all or none.
pub async fn recreate(
    db: &Db,
    (spaces, groups): (&[SpaceOut], &[GroupOut]),
    extra: &[String],
) -> Result<Made, DocError> {
    let tx = db.begin_write().await?;
    let mut made = Made::default();
    for (id, name) in stored::all_names(&*tx).await? {
        made.spaces.insert(name.to_lowercase(), id);
    }
    let users: HashMap<String, i64> = crate::db::accounts::all_names(&*tx)
        .await?
        .into_iter()
        .map(|(id, name)| (name.to_lowercase(), id))
        .collect();
    let folders = extra.iter().map(|name| {
        let space = SpaceOut {
            name: name.clone(),
            default_role: Some("edit".into()),
            members: Vec::new(),
        };
        (space, true)
    });
    let wanted = spaces.iter().map(|s| (s.clone(), false)).chain(folders);
    for (space, from_folder) in wanted {
        let Ok(name) = super::check_name(&space.name, "space") else {
            continue;
        };
        if made.spaces.contains_key(&name.to_lowercase()) {
            continue;
        }
        let default_role = match space.default_role.as_deref().map(Role::parse) {
            Some(Ok(r)) => Some(r.level()),
            _ => None,
        };
        let id = stored::insert(&*tx, &name, default_role, now_ms()).await?;
        if from_folder {
            // A folder's space: everyone here, with what new accounts get.
            for user in users.values() {
                stored::put_member(&*tx, id, Who::Person(*user), Role::Edit.level()).await?;
            }
        }
        for m in &space.members {
            let role = Role::parse(&m.role).map_or(Role::Read, |r| r).level();
            let who = if m.group {
                group_here(&*tx, &m.name, groups, &users)
                    .await?
                    .map(Who::Group)
            } else {
                users.get(&m.name.to_lowercase()).copied().map(Who::Person)
            };
            if let Some(who) = who {
                stored::put_member(&*tx, id, who, role).await?;
            }
        }
        crate::db::audit(&*tx, None, "space.created", &format!("{name} (import)")).await?;
        made.spaces.insert(name.to_lowercase(), id);
        made.new_spaces.push(name);
    }
    tx.commit().await?;
    Ok(made)
}

/// The group called `name` here, made (with its people who have accounts
/// here, as the export lists them) if there is none.
async fn group_here(
    ex: &impl crate::db::Conn,
    name: &str,
    groups: &[GroupOut],
    users: &HashMap<String, i64>,
) -> Result<Option<i64>, crate::db::Error> {
    if let Some(id) = stored_groups::id_by_name(ex, name).await? {
        return Ok(Some(id));
    }
    let Ok(name) = super::check_name(name, "group") else {
        return Ok(None);
    };
    let id = stored_groups::insert(ex, &name, now_ms()).await?;
    let people = groups
        .iter()
        .find(|g| g.name.eq_ignore_ascii_case(&name))
        .map(|g| g.members.as_slice())
        .unwrap_or_default();
    for person in people {
        if let Some(user) = users.get(&person.to_lowercase()) {
            stored_groups::add_member(ex, id, *user).await?;
        }
    }
    Ok(Some(id))
}
