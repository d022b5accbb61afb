//! Webhooks: addresses an admin (every space) or a space manager (their
//! space) registers to be told of events by a signed HTTP post. Each event is
//! written to the hook's outbox in the notifier's transaction (`events`), only
//! when the hook's maker may read the document at that moment, and sent after
//! by `sender`, retried with backoff, signed (`sign`), to addresses `guard`
//! allows.

pub mod events;
pub mod guard;
pub mod sender;
pub mod sign;

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::webhooks::{self as stored, DeliveryRow, HookRow};
use crate::documents::DocError;
use crate::teams::{Manager, spaces};

/// Every event a hook can ask for, with what it means.
pub const EVENTS: &[(&str, &str)] = &[
    ("document.created", "a document is written"),
    (
        "document.updated",
        "a document is saved again (one event per person's run of saves)",
    ),
    ("document.moved", "a document moves to another space"),
    ("document.trashed", "a document goes to the trash"),
    ("document.restored", "a document comes back from the trash"),
    (
        "document.deleted",
        "a document is deleted for good (the trash emptied)",
    ),
    ("comment.added", "someone comments on a document"),
    (
        "suggestion.opened",
        "someone suggests an edit of a document",
    ),
    (
        "suggestion.accepted",
        "a suggested edit is accepted (and saved)",
    ),
    ("suggestion.declined", "a suggested edit is declined"),
];

/// The longest address a hook may post to.
const MAX_URL: usize = 2_000;

/// Deliveries a hook's page shows.
const SHOWN: i64 = 30;

pub type Hook = HookRow;
pub type Delivery = DeliveryRow;

/// The hooks `m` may manage: every hook for an admin, else those of the
/// spaces they manage.
pub async fn list(db: &Db, m: Manager<'_>) -> Result<Vec<Hook>, DocError> {
    Ok(stored::list(&db.read, m.user_id, m.is_admin).await?)
}

/// A hook `m` may manage; others are missing.
pub async fn find(db: &Db, m: Manager<'_>, id: i64) -> Result<Hook, DocError> {
    let hook = stored::find(&db.read, id)
        .await?
        .ok_or(DocError::NotFound)?;
    if m.is_admin {
        return Ok(hook);
    }
    match hook.space_id {
        Some(space) if manages(db, m, space).await? => Ok(hook),
        _ => Err(DocError::NotFound),
    }
}

async fn manages(db: &Db, m: Manager<'_>, space: i64) -> Result<bool, DocError> {
    match spaces::find(db, m, space).await {
        Ok(s) => Ok(spaces::may_manage(m, &s)),
        Err(DocError::NotFound) => Ok(false),
        Err(e) => Err(e),
    }
}

/// An address a hook may be given: http or https, with a host, no user or
/// password in it. Where it leads is checked again at each delivery (`guard`).
fn checked_url(url: &str) -> Result<String, DocError> {
    let url = url.trim();
    let bad = |why: &str| DocError::Invalid(format!("The address {url:?} {why}."));
    if url.len() > MAX_URL {
        return Err(bad("is too long"));
    }
    let parsed = reqwest::Url::parse(url).map_err(|_| bad("is not a web address"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("does not start with http:// or https://"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad("names no host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad(
            "holds a user name or password (put a secret in the path instead)",
        ));
    }
    Ok(parsed.to_string())
}

/// The events asked for, each one quire knows, in `EVENTS`' order.
fn checked_events(asked: &[&str]) -> Result<String, DocError> {
    let events: Vec<&str> = EVENTS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| asked.contains(name))
        .collect();
    if events.is_empty() {
        return Err(DocError::Invalid("Choose at least one event.".into()));
    }
    Ok(events.join(" "))
}

/// A new hook posting `events` to `url`, for space `space` (or every space,
/// admins only); its id. Its secret is made here, shown on its page.
pub async fn create(
    db: &Db,
    m: Manager<'_>,
    url: &str,
    events: &[&str],
    space: Option<i64>,
) -> Result<i64, DocError> {
    let url = checked_url(url)?;
    let events = checked_events(events)?;
    match space {
        None if !m.is_admin => return Err(DocError::Forbidden),
        Some(s) if !manages(db, m, s).await? => return Err(DocError::Forbidden),
        _ => {}
    }
    let secret = crate::random::random_token();
    let tx = db.begin_write().await?;
    let id = stored::insert(&*tx, (&url, &secret, &events), space, m.user_id, now_ms()).await?;
    crate::db::audit(&*tx, Some(m.user_id), "webhook.created", &url).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn delete(db: &Db, m: Manager<'_>, id: i64) -> Result<(), DocError> {
    let hook = find(db, m, id).await?;
    let tx = db.begin_write().await?;
    stored::delete(&*tx, id).await?;
    crate::db::audit(&*tx, Some(m.user_id), "webhook.removed", &hook.url).await?;
    tx.commit().await?;
    Ok(())
}

/// A hook's latest deliveries, newest first.
pub async fn deliveries(db: &Db, m: Manager<'_>, id: i64) -> Result<Vec<Delivery>, DocError> {
    find(db, m, id).await?;
    Ok(stored::deliveries(&db.read, id, SHOWN).await?)
}

/// Sends a delivery's event again, as a new delivery (due at once).
pub async fn resend(db: &Db, m: Manager<'_>, id: i64, delivery: i64) -> Result<(), DocError> {
    find(db, m, id).await?;
    let d = stored::delivery(&db.read, delivery)
        .await?
        .filter(|d| d.hook_id == id)
        .ok_or(DocError::NotFound)?;
    let tx = db.begin_write().await?;
    stored::enqueue(&*tx, id, &d.event, &d.body, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{checked_events, checked_url};

    #[test]
    fn a_hook_posts_to_a_plain_web_address() {
        assert!(checked_url("https://ci.example.org/hooks/quire?x=1").is_ok());
        for bad in [
            "ftp://example.org/",
            "https://user:pw@example.org/",
            "not a url",
            "file:///etc/passwd",
        ] {
            assert!(checked_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_known_events_are_kept_in_their_order() {
        let got = checked_events(&["comment.added", "nonsense", "document.created"]);
        assert_eq!(got.unwrap(), "document.created comment.added");
        assert!(checked_events(&["nonsense"]).is_err());
    }
}
