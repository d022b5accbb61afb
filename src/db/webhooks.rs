//! Webhooks and their deliveries, as stored. Who may make or see a hook, what
//! an event says and where it may go are the domain's (`crate::webhooks`).

use crate::db::documents::{level, spaces_of};
use crate::db::{Conn, Error};

/// A hook, with its maker's and its space's names.
#[derive(Debug, Clone)]
pub struct HookRow {
    pub id: i64,
    pub url: String,
    pub secret: String,
    pub events: String,
    pub space_id: Option<i64>,
    pub space_name: Option<String>,
    pub owner_id: i64,
    pub owner: String,
    pub created_at: i64,
}
crate::db::from_row!(HookRow {
    id,
    url,
    secret,
    events,
    space_id,
    space_name,
    owner_id,
    owner,
    created_at
});

const HOOK: &str = "SELECT h.id, h.url, h.secret, h.events, h.space_id, s.name AS space_name,
        h.owner_id, u.username AS owner, h.created_at
    FROM webhooks AS h JOIN users AS u ON u.id = h.owner_id
    LEFT JOIN spaces AS s ON s.id = h.space_id";

pub async fn insert(
    ex: &impl Conn,
    (url, secret, events): (&str, &str, &str),
    space_id: Option<i64>,
    owner_id: i64,
    now: i64,
) -> Result<i64, Error> {
    crate::db::query_scalar(
        "INSERT INTO webhooks (url, secret, events, space_id, owner_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(url)
    .bind(secret)
    .bind(events)
    .bind(space_id)
    .bind(owner_id)
    .bind(now)
    .fetch_one(ex)
    .await
}

/// The hooks `viewer` may manage: every hook for an admin (`all`), else the
/// hooks of the spaces they manage.
pub async fn list(ex: &impl Conn, viewer: i64, all: bool) -> Result<Vec<HookRow>, Error> {
    crate::db::query_as::<HookRow>(format!(
        "{HOOK} WHERE $2 = 1 OR h.space_id IN {} ORDER BY h.id",
        spaces_of("$1", 3)
    ))
    .bind(viewer)
    .bind(i64::from(all))
    .fetch_all(ex)
    .await
}

pub async fn find(ex: &impl Conn, id: i64) -> Result<Option<HookRow>, Error> {
    crate::db::query_as::<HookRow>(format!("{HOOK} WHERE h.id = $1"))
        .bind(id)
        .fetch_optional(ex)
        .await
}

pub async fn delete(ex: &impl Conn, id: i64) -> Result<bool, Error> {
    let done = crate::db::query("DELETE FROM webhooks WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The hooks that want `event` about document `doc_seq` and whose makers
/// (enabled accounts) may read it now.
pub async fn listeners(ex: &impl Conn, event: &str, doc_seq: i64) -> Result<Vec<i64>, Error> {
    crate::db::query_scalar(format!(
        "SELECT h.id FROM webhooks AS h
         WHERE (' ' || h.events || ' ') LIKE $2
           AND (h.space_id IS NULL
                OR h.space_id = (SELECT space_id FROM documents WHERE seq = $1))
           AND h.owner_id IN (SELECT u.id FROM users AS u, documents
                              WHERE documents.seq = $1 AND u.disabled_at IS NULL
                                AND ({}) >= 1)
         ORDER BY h.id",
        level("u.id")
    ))
    .bind(doc_seq)
    .bind(format!("% {event} %"))
    .fetch_all(ex)
    .await
}

/// The hooks that want `event` about a document that is gone, which was in
/// space `space_id` and owned by `owner_id`: those whose makers owned it or
/// were members of its space.
pub async fn listeners_of_gone(
    ex: &impl Conn,
    event: &str,
    space_id: Option<i64>,
    owner_id: Option<i64>,
) -> Result<Vec<i64>, Error> {
    crate::db::query_scalar(
        "SELECT h.id FROM webhooks AS h JOIN users AS u ON u.id = h.owner_id
         WHERE (' ' || h.events || ' ') LIKE $1 AND u.disabled_at IS NULL
           AND (h.space_id IS NULL OR h.space_id = $2)
           AND (h.owner_id = $3
                OR EXISTS (SELECT 1 FROM space_members AS m WHERE m.space_id = $2
                             AND (m.user_id = h.owner_id OR m.group_id IN
                                  (SELECT gm.group_id FROM group_members AS gm
                                   WHERE gm.user_id = h.owner_id))))
         ORDER BY h.id",
    )
    .bind(format!("% {event} %"))
    .bind(space_id)
    .bind(owner_id)
    .fetch_all(ex)
    .await
}

/// Puts an event in a hook's outbox, due at once.
pub async fn enqueue(
    ex: &impl Conn,
    hook_id: i64,
    event: &str,
    body: &str,
    now: i64,
) -> Result<i64, Error> {
    crate::db::query_scalar(
        "INSERT INTO webhook_deliveries (hook_id, event, body, created_at, next_try_at)
         VALUES ($1, $2, $3, $4, $4) RETURNING id",
    )
    .bind(hook_id)
    .bind(event)
    .bind(body)
    .bind(now)
    .fetch_one(ex)
    .await
}

/// One delivery as its hook's page shows it.
#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub id: i64,
    pub hook_id: i64,
    pub event: String,
    pub body: String,
    pub created_at: i64,
    pub next_try_at: Option<i64>,
    pub tries: i64,
    pub status: Option<i64>,
    pub answer_ms: Option<i64>,
    pub error: Option<String>,
    pub sent_at: Option<i64>,
}
crate::db::from_row!(DeliveryRow {
    id,
    hook_id,
    event,
    body,
    created_at,
    next_try_at,
    tries,
    status,
    answer_ms,
    error,
    sent_at
});

const DELIVERY: &str = "SELECT id, hook_id, event, body, created_at, next_try_at, tries, status,
        answer_ms, error, sent_at FROM webhook_deliveries";

/// A hook's latest deliveries, newest first.
pub async fn deliveries(
    ex: &impl Conn,
    hook_id: i64,
    most: i64,
) -> Result<Vec<DeliveryRow>, Error> {
    crate::db::query_as::<DeliveryRow>(format!(
        "{DELIVERY} WHERE hook_id = $1 ORDER BY id DESC LIMIT $2"
    ))
    .bind(hook_id)
    .bind(most)
    .fetch_all(ex)
    .await
}

pub async fn delivery(ex: &impl Conn, id: i64) -> Result<Option<DeliveryRow>, Error> {
    crate::db::query_as::<DeliveryRow>(format!("{DELIVERY} WHERE id = $1"))
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// A delivery due to be tried, with where it goes and how it is signed.
#[derive(Debug, Clone)]
pub struct Due {
    pub id: i64,
    pub event: String,
    pub body: String,
    pub tries: i64,
    pub url: String,
    pub secret: String,
}
crate::db::from_row!(Due {
    id,
    event,
    body,
    tries,
    url,
    secret
});

/// Claims up to `most` deliveries due at `now` until `until`: no other sender
/// takes them meanwhile (on PostgreSQL rows another instance holds are
/// skipped, not waited for).
pub async fn claim(ex: &impl Conn, now: i64, until: i64, most: i64) -> Result<Vec<Due>, Error> {
    let lock = match crate::db::is_postgres(ex) {
        true => " FOR UPDATE OF d SKIP LOCKED",
        false => "",
    };
    let rows = crate::db::query_as::<Due>(format!(
        "SELECT d.id, d.event, d.body, d.tries, h.url, h.secret
         FROM webhook_deliveries AS d JOIN webhooks AS h ON h.id = d.hook_id
         WHERE d.next_try_at <= $1 AND (d.claimed_until IS NULL OR d.claimed_until < $1)
         ORDER BY d.next_try_at, d.id LIMIT $2{lock}"
    ))
    .bind(now)
    .bind(most)
    .fetch_all(ex)
    .await?;
    for row in &rows {
        crate::db::query("UPDATE webhook_deliveries SET claimed_until = $2 WHERE id = $1")
            .bind(row.id)
            .bind(until)
            .execute(ex)
            .await?;
    }
    Ok(rows)
}

/// How a try went: the answer's status and time, or why there was none.
#[derive(Debug, Clone)]
pub struct Tried<'a> {
    pub status: Option<i64>,
    pub answer_ms: Option<i64>,
    pub error: Option<&'a str>,
    /// Delivered at this time.
    pub sent_at: Option<i64>,
    /// Tried again at this time (none: delivered, or given up).
    pub next_try_at: Option<i64>,
}

pub async fn tried(ex: &impl Conn, id: i64, t: &Tried<'_>) -> Result<(), Error> {
    crate::db::query(
        "UPDATE webhook_deliveries SET tries = tries + 1, status = $2, answer_ms = $3, error = $4,
             sent_at = $5, next_try_at = $6, claimed_until = NULL
         WHERE id = $1",
    )
    .bind(id)
    .bind(t.status)
    .bind(t.answer_ms)
    .bind(t.error)
    .bind(t.sent_at)
    .bind(t.next_try_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Whether any delivery is due by `now` (asked of a reader).
pub async fn any_due(ex: &impl Conn, now: i64) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar(
        "SELECT id FROM webhook_deliveries WHERE next_try_at <= $1 LIMIT 1",
    )
    .bind(now)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Forgets finished deliveries made before `before`.
pub async fn forget(ex: &impl Conn, before: i64) -> Result<(), Error> {
    crate::db::query(
        "DELETE FROM webhook_deliveries WHERE next_try_at IS NULL AND created_at < $1",
    )
    .bind(before)
    .execute(ex)
    .await?;
    Ok(())
}

/// What an event says of a document: its id, title, space, folder, version.
#[derive(Debug, Clone)]
pub struct DocFacts {
    pub id: String,
    pub title: String,
    pub space_id: Option<i64>,
    pub space_name: Option<String>,
    pub folder: String,
    pub version: i64,
    pub owner_id: Option<i64>,
}
crate::db::from_row!(DocFacts {
    id,
    title,
    space_id,
    space_name,
    folder,
    version,
    owner_id
});

pub async fn document(ex: &impl Conn, doc_seq: i64) -> Result<Option<DocFacts>, Error> {
    crate::db::query_as::<DocFacts>(
        "SELECT d.id, d.title, d.space_id, s.name AS space_name, d.folder, d.version, d.owner_id
         FROM documents AS d LEFT JOIN spaces AS s ON s.id = d.space_id WHERE d.seq = $1",
    )
    .bind(doc_seq)
    .fetch_optional(ex)
    .await
}

/// Whether any hook exists (the notifier asks nothing more when none does).
pub async fn any(ex: &impl Conn) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar("SELECT id FROM webhooks LIMIT 1")
        .fetch_optional(ex)
        .await?;
    Ok(found.is_some())
}
