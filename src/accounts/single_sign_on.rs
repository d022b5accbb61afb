//! Signing in as an identity provider says: the provider's person (issuer and
//! subject) is linked to one account, made at their first sign-in under a free
//! variant of the name they are known by, and the provider's groups and
//! administrator rights are kept in step at each sign-in.

use std::collections::BTreeMap;

use super::{AccountError, User, audit, check_username};
use crate::db::Db;
use crate::db::accounts::{self as stored, identities};
use crate::documents::now_ms;

/// The issuer recorded for people a trusted proxy's header names.
pub const PROXY_HEADER: &str = "header";

/// A password hash no password matches: accounts made by single sign-on have
/// no local password until an administrator gives them one.
const NO_PASSWORD: &str = "!";

/// A person as the identity provider names them.
#[derive(Clone, Debug)]
pub struct Identity<'a> {
    /// The provider (`PROXY_HEADER` for a trusted proxy).
    pub issuer: &'a str,
    /// The provider's lasting name for the person.
    pub subject: &'a str,
    /// The user name the person would like (the subject, an email, ...).
    pub name: &'a str,
    /// The groups the provider puts them in, when it says (then kept in step).
    pub groups: Option<&'a [String]>,
    /// Whether the provider makes them an administrator, when it says.
    pub admin: Option<bool>,
    /// Whether someone no account is linked to gets one made.
    pub may_create: bool,
    /// An email the provider verified: the account's mail address when it has none.
    pub email: Option<&'a str>,
}

/// How the identity providers know `user`, in words for their account page.
pub async fn known_as(db: &Db, user: i64) -> Result<Vec<String>, crate::db::Error> {
    Ok(identities::of_user(&db.read, user)
        .await?
        .into_iter()
        .map(|(issuer, subject)| match issuer.as_str() {
            PROXY_HEADER => format!("{subject}, named by the sign-in proxy"),
            _ => format!("{subject} at {issuer}"),
        })
        .collect())
}

/// Whether `user` is linked to a person at `issuer`.
pub async fn is_linked(db: &Db, user: i64, issuer: &str) -> Result<bool, crate::db::Error> {
    let known = identities::of_user(&db.read, user).await?;
    Ok(known.iter().any(|(i, _)| i == issuer))
}

/// A user name quire accepts, made from what the provider calls the person:
/// an email's local part, other characters as dashes, at most 60 characters.
pub fn wished_name(name: &str) -> String {
    let name = name.trim();
    let local = name.split_once('@').map_or(name, |(local, _)| local);
    let cleaned: String = local
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    let cleaned = cleaned.trim_matches('-');
    if cleaned.is_empty() {
        "user".to_owned()
    } else {
        cleaned.to_owned()
    }
}

/// The group names the provider gave, usable as quire's: trimmed, 1 to 80
/// characters without control characters, each once (case aside).
fn group_names(groups: &[String]) -> Vec<String> {
    let mut seen = BTreeMap::new();
    for g in groups {
        let g = g.trim();
        if !g.is_empty() && g.chars().count() <= 80 && !g.chars().any(char::is_control) {
            seen.entry(g.to_lowercase()).or_insert_with(|| g.to_owned());
        }
    }
    seen.into_values().collect()
}

/// The account of the provider's person, made at their first sign-in; its
/// groups and administrator rights follow the provider. A disabled account
/// stays out.
pub async fn sign_in(db: &Db, who: &Identity<'_>) -> Result<User, AccountError> {
    if who.subject.is_empty() || who.subject.len() > 256 {
        return Err(AccountError::Invalid(
            "The identity provider named nobody (or a name over 256 bytes).".into(),
        ));
    }
    let now = now_ms();
    let tx = db.begin_write().await?;
    let mut user = match identities::linked(&*tx, who.issuer, who.subject).await? {
        Some((_, Some(_))) => return Err(AccountError::Disabled),
        Some((user, None)) => user,
        None if !who.may_create => return Err(AccountError::NotLinked),
        None => {
            let user = create(&tx, who, now).await?;
            let detail = format!("{}, by single sign-on ({})", user.username, who.issuer);
            audit(&tx, Some(user.id), "user.created", &detail).await?;
            user
        }
    };
    if let Some(admin) = who.admin.filter(|a| *a != user.is_admin) {
        stored::set_admin(&*tx, user.id, admin).await?;
        let what = if admin { "granted" } else { "removed" };
        let detail = format!(
            "{}: administrator rights {what} by single sign-on",
            user.username
        );
        audit(&tx, Some(user.id), "user.admin", &detail).await?;
        user.is_admin = admin;
    }
    if let Some(groups) = who.groups {
        keep_groups(&tx, &user, who.issuer, &group_names(groups), now).await?;
    }
    if let Some(email) = who.email {
        let key = crate::random::random_token();
        crate::db::notices::mail::set_if_none(&*tx, user.id, email, &key).await?;
    }
    audit(
        &tx,
        Some(user.id),
        "login.ok",
        &format!("single sign-on ({})", who.issuer),
    )
    .await?;
    tx.commit().await?;
    Ok(user)
}

/// Links the provider's person to `user`, who proved their password (or is
/// an administrator's choice): from now on that sign-in is theirs.
pub async fn link(db: &Db, user: &User, issuer: &str, subject: &str) -> Result<(), AccountError> {
    link_id(db, (user.id, &user.username), issuer, subject).await
}

async fn link_id(
    db: &Db,
    (id, name): (i64, &str),
    issuer: &str,
    subject: &str,
) -> Result<(), AccountError> {
    let tx = db.begin_write().await?;
    match identities::linked(&*tx, issuer, subject).await? {
        Some((linked, _)) if linked.id == id => return Ok(()),
        Some(_) => return Err(AccountError::LinkedElsewhere),
        None => {}
    }
    identities::link(&*tx, issuer, subject, id, now_ms()).await?;
    let detail = format!("{name}: linked to {subject} at {issuer}");
    audit(&tx, Some(id), "user.linked", &detail).await?;
    tx.commit().await?;
    Ok(())
}

/// `link` for the account called `name` (the command line's: an
/// administrator's word).
pub async fn link_by_name(
    db: &Db,
    name: &str,
    issuer: &str,
    subject: &str,
) -> Result<(), AccountError> {
    let Some(id) = stored::id_by_name(&db.read, name.trim()).await? else {
        return Err(AccountError::Invalid(format!(
            "There is no account called {name}."
        )));
    };
    if subject.trim().is_empty() || subject.len() > 256 {
        return Err(AccountError::Invalid(
            "A subject is 1 to 256 bytes, as the provider gives it.".into(),
        ));
    }
    link_id(db, (id, name.trim()), issuer, subject).await
}

async fn create(
    tx: &crate::db::WriteTx,
    who: &Identity<'_>,
    now: i64,
) -> Result<User, AccountError> {
    let wished = check_username(&wished_name(who.name))?;
    for n in 1..=100 {
        let name = match n {
            1 => wished.clone(),
            n => format!("{wished}-{n}"),
        };
        if stored::id_by_name(&**tx, &name).await?.is_some() {
            continue;
        }
        let user =
            stored::insert(&**tx, &name, NO_PASSWORD, who.admin.unwrap_or(false), now).await?;
        identities::link(&**tx, who.issuer, who.subject, user.id, now).await?;
        return Ok(user);
    }
    Err(AccountError::Taken)
}

/// Puts the person in exactly the provider's groups among those it keeps: new
/// names become groups it keeps, a group made in quire with such a name is
/// taken over, one another provider keeps is left alone.
async fn keep_groups(
    tx: &crate::db::WriteTx,
    user: &User,
    issuer: &str,
    names: &[String],
    now: i64,
) -> Result<(), AccountError> {
    let mut kept = Vec::new();
    for name in names {
        let id = match identities::group_by_name(&**tx, name).await? {
            None => identities::insert_group(&**tx, name, issuer, now).await?,
            Some((id, None)) => {
                identities::adopt_group(&**tx, id, issuer).await?;
                let detail = format!("{name}: kept by single sign-on ({issuer}) from now on");
                audit(tx, Some(user.id), "group.managed", &detail).await?;
                id
            }
            Some((id, Some(by))) if by == issuer => id,
            Some(_) => continue,
        };
        crate::db::teams::groups::add_member(&**tx, id, user.id).await?;
        kept.push(id);
    }
    for (id, name) in identities::managed_memberships(&**tx, user.id, issuer).await? {
        if !kept.contains(&id) {
            crate::db::teams::groups::remove_member(&**tx, id, user.id).await?;
            let detail = format!("{name}: {} left, by single sign-on", user.username);
            audit(tx, Some(user.id), "group.member", &detail).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wished_names_are_user_names_quire_accepts() {
        assert_eq!(wished_name("alice"), "alice");
        assert_eq!(wished_name("Alice.Smith@example.org"), "Alice.Smith");
        assert_eq!(wished_name("CN=Bob Jones,OU=x"), "CN-Bob-Jones-OU-x");
        assert_eq!(wished_name("@@@"), "user");
        assert_eq!(wished_name(&"é".repeat(90)).chars().count(), 60);
        for odd in ["alice", "a b@c", "--x--", "日本"] {
            assert!(check_username(&wished_name(odd)).is_ok(), "{odd}");
        }
    }

    #[test]
    fn group_names_are_trimmed_and_each_kept_once() {
        let mut given: Vec<String> = ["Eng", " eng ", "", "Ops", "bad\u{7}"]
            .map(String::from)
            .into();
        given.push("x".repeat(81));
        assert_eq!(group_names(&given), ["Eng", "Ops"]);
    }
}
