//! The notifier: turns the queue of changes (`db::notices::queue`) into
//! notices, after the commits that queued them, so saving never waits for it.
//! Each batch is one write transaction that makes the notices and deletes what
//! it told: a crash before its commit tells the batch again from the start,
//! after it tells nothing twice. Whether a person may read a document is asked
//! of the access statement at the moment the notice is made (and again when
//! it is shown).

use std::collections::BTreeMap;
use std::time::Duration;

use super::mentions;
use crate::clock::now_ms;
use crate::db::notices::queue::{self, Queued};
use crate::db::notices::{fan_out, inbox};
use crate::db::{Conn, Db, Error};

/// Changes told per transaction.
const BATCH: i64 = 200;

/// How often an idle notifier looks at the queue (a reader's cheap query).
const POLL: Duration = Duration::from_millis(200);

/// Read notices are kept this long.
const KEEP_READ_MS: i64 = 90 * 24 * 3600 * 1000;

/// Tells what waits, batch after batch, until the database closes; links in
/// webhooks' events start with `base` (QUIRE_PUBLIC_URL, or nothing).
pub async fn run(db: Db, base: String) {
    let mut last_tidy = 0;
    let mut failures = 0u32;
    loop {
        if db.is_closed() {
            return;
        }
        match tell_waiting_with(&db, &base).await {
            Ok(n) => {
                failures = 0;
                if n < BATCH as usize {
                    tokio::time::sleep(POLL).await;
                }
            }
            Err(e) => {
                failures = failures.saturating_add(1);
                tracing::warn!(error = %e, "telling changes failed; trying again");
                let wait = POLL * 2u32.saturating_pow(failures.min(6));
                tokio::time::sleep(wait).await;
            }
        }
        let now = now_ms();
        if now - last_tidy > 3600 * 1000 {
            last_tidy = now;
            if let Err(e) = forget_old(&db, now).await {
                tracing::warn!(error = %e, "forgetting old read notices failed");
            }
        }
    }
}

async fn forget_old(db: &Db, now: i64) -> Result<(), Error> {
    // Read notices and presence only: who is asking (with their count of
    // unread notices) stays known.
    let mut tx = db.begin_queue_write().await?;
    inbox::forget_read(&*tx, now - KEEP_READ_MS).await?;
    crate::db::notices::presence::forget(&*tx, now - 3600 * 1000).await?;
    tx.left_unread_alone();
    tx.commit().await
}

/// Tells one batch of waiting changes; how many. A batch that fails is told
/// one change at a time, and a change that fails alone is dropped (and
/// logged), so one bad row cannot stop every notice after it.
pub async fn tell_waiting(db: &Db) -> Result<usize, Error> {
    tell_waiting_with(db, "").await
}

/// `tell_waiting`, with webhooks' links starting with `base`.
pub async fn tell_waiting_with(db: &Db, base: &str) -> Result<usize, Error> {
    if !queue::any(db).await? {
        return Ok(0);
    }
    let mut tx = db.begin_queue_write().await?;
    let batch = queue::take(&*tx, BATCH).await?;
    let now = now_ms();
    let told = tell_all(&*tx, &batch, (base, now)).await;
    let Err(e) = told else {
        let ids: Vec<i64> = batch.iter().map(|c| c.id).collect();
        queue::done(&*tx, &ids).await?;
        if let Ok(0) = told {
            // Saves nobody else watches: whoever is asking stays known.
            tx.left_unread_alone();
        }
        tx.commit().await?;
        return Ok(batch.len());
    };
    drop(tx);
    tracing::warn!(error = %e, "a batch of changes failed; telling them one by one");
    for change in &batch {
        // Between these transactions another notifier may take the rest of
        // the batch (in order): what it told already is not told again.
        let tx = db.begin_queue_write().await?;
        if !queue::claim(&*tx, change.id).await? {
            continue;
        }
        if let Err(e) = tell_all(&*tx, std::slice::from_ref(change), (base, now)).await {
            drop(tx);
            tracing::error!(error = %e, change = ?change, "a change could not be told; it is dropped");
            let tx = db.begin_queue_write().await?;
            queue::done(&*tx, &[change.id]).await?;
            tx.commit().await?;
            continue;
        }
        tx.commit().await?;
    }
    Ok(batch.len())
}

/// Tells a batch in order, the revisions of each document between two other
/// changes together (ten saves of one page are one statement per author, not
/// ten): a share told after a save must not make its save reach the new reader.
/// How many notices it made or gathered into.
async fn tell_all(ex: &impl Conn, batch: &[Queued], at: (&str, i64)) -> Result<u64, Error> {
    let now = at.1;
    let mut made = 0;
    let mut saved: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for change in batch {
        if let ("rev", Some(doc), Some(rev)) = (change.kind.as_str(), change.doc_seq, change.rev) {
            let range = saved.entry(doc).or_insert((rev, rev));
            *range = (range.0.min(rev), range.1.max(rev));
            continue;
        }
        for (doc, range) in std::mem::take(&mut saved) {
            made += revisions(ex, doc, range, at).await?;
        }
        made += match (change.kind.as_str(), change.doc_seq, change.space_id) {
            ("share", Some(doc), _) => shared(ex, change, doc, now).await?,
            ("space", _, Some(space)) => joined(ex, change, space, now).await?,
            ("comment", Some(doc), _) => commented(ex, change, doc, at).await?,
            ("event", doc, _) => happened(ex, change, doc, at).await?,
            _ => 0,
        };
    }
    for (doc, range) in saved {
        made += revisions(ex, doc, range, at).await?;
    }
    Ok(made)
}

/// A document's other event (trashed, restored, moved, deleted): hooks are told.
async fn happened(
    ex: &impl Conn,
    change: &Queued,
    doc: Option<i64>,
    at: (&str, i64),
) -> Result<u64, Error> {
    let Some(detail) = change.detail.as_deref() else {
        return Ok(0);
    };
    let detail: crate::webhooks::events::Detail = match serde_json::from_str(detail) {
        Ok(d) => d,
        Err(e) => {
            tracing::error!(error = %e, detail, "a queued event could not be read; it is dropped");
            return Ok(0);
        }
    };
    let actor = actor_name(ex, change).await?;
    crate::webhooks::events::happened(ex, doc, &detail, actor.as_deref(), at).await?;
    if let (Some(doc), Some(sid)) = (doc, detail.suggestion) {
        return suggestion(
            ex,
            change,
            (doc, sid),
            &detail.event,
            actor.as_deref(),
            at.1,
        )
        .await;
    }
    Ok(0)
}

/// A suggested edit opened (its editors watching are told) or decided (its
/// author is told, if they may still read the document).
async fn suggestion(
    ex: &impl Conn,
    change: &Queued,
    (doc, sid): (i64, i64),
    event: &str,
    actor: Option<&str>,
    now: i64,
) -> Result<u64, Error> {
    let Some(s) = crate::db::suggestions::by_id(ex, sid).await? else {
        return Ok(0);
    };
    let kind = match event {
        "suggestion.opened" => {
            let by = (actor, change.actor_id);
            return fan_out::tell_watchers(ex, "suggested", doc, by, (sid, sid, 1), now).await;
        }
        "suggestion.accepted" => "suggestion_accepted",
        "suggestion.declined" => "suggestion_declined",
        _ => return Ok(0),
    };
    let Some(author) = s.author_id.filter(|a| Some(*a) != change.actor_id) else {
        return Ok(0);
    };
    if let Some((_, access, _)) = fan_out::access_of(ex, doc, &[author]).await?.first()
        && access.may_read()
    {
        return fan_out::tell_document(ex, author, kind, doc, actor, Some(sid), now).await;
    }
    Ok(0)
}

/// Revisions `first` to `last` of a document: each author watches it (unless
/// they turned that off), everyone watching it, its folder or its space who
/// may read it is told of each author's saves, and everyone it mentions for
/// the first time is told (and then watches it, unless they turned that off).
async fn revisions(
    ex: &impl Conn,
    doc: i64,
    range: (i64, i64),
    at: (&str, i64),
) -> Result<u64, Error> {
    let now = at.1;
    let Some(facts) = fan_out::document(ex, doc).await? else {
        return Ok(0);
    };
    if facts.deleted {
        return Ok(0);
    }
    let saves = fan_out::authors(ex, doc, range).await?;
    let mut made = 0;
    let mut watching_now: Vec<i64> = Vec::new();
    for s in &saves {
        if let Some(id) = s.author_id
            && s.watch_own
            && !watching_now.contains(&id)
        {
            fan_out::watch_unless_said(ex, doc, id, now).await?;
            watching_now.push(id);
        }
    }
    // Runs of saves by one author, each told as one.
    let mut i = 0;
    while i < saves.len() {
        let run = saves[i..]
            .iter()
            .take_while(|s| s.author == saves[i].author)
            .count();
        let (first, last) = (&saves[i], &saves[i + run - 1]);
        let by = (first.author.as_deref(), first.author_id);
        made += fan_out::tell_watchers(
            ex,
            "edited",
            doc,
            by,
            (first.rev, last.rev, run as i64),
            now,
        )
        .await?;
        crate::webhooks::events::saved(ex, doc, (first.rev, last.rev), by.0, at).await?;
        i += run;
    }
    let Some(last) = saves.last() else {
        return Ok(0);
    };
    if facts.has_at {
        made += mentions(ex, doc, last, now).await?;
    }
    Ok(made)
}

/// Everyone the document's text mentions, who may read it and was never told
/// of a mention in it, is told (as of revision `last`).
async fn mentions(ex: &impl Conn, doc: i64, last: &fan_out::Saved, now: i64) -> Result<u64, Error> {
    let body = fan_out::body(ex, doc).await?.unwrap_or_default();
    let mut named = fan_out::people_named(ex, &mentions::names(&body)).await?;
    named.retain(|id| Some(*id) != last.author_id);
    let author = last.author.as_deref();
    let mut made = 0;
    for (user, access, watch_own) in fan_out::access_of(ex, doc, &named).await? {
        if !access.may_read() || fan_out::mentioned_before(ex, user, doc).await? {
            continue;
        }
        made +=
            fan_out::tell_document(ex, user, "mentioned", doc, author, Some(last.rev), now).await?;
        if watch_own {
            fan_out::watch_unless_said(ex, doc, user, now).await?;
        }
    }
    Ok(made)
}

/// A comment written: its author watches the document (unless they turned
/// that off), everyone watching it who may read it is told, and everyone it
/// mentions who may read the document is told of the mention.
async fn commented(
    ex: &impl Conn,
    change: &Queued,
    doc: i64,
    at: (&str, i64),
) -> Result<u64, Error> {
    let now = at.1;
    let Some(facts) = fan_out::document(ex, doc).await? else {
        return Ok(0);
    };
    let comment = match change.comment_id {
        Some(id) => crate::db::comments::by_id(ex, id).await?,
        None => None,
    };
    let Some(comment) = comment.filter(|c| c.deleted_at.is_none()) else {
        return Ok(0);
    };
    if facts.deleted {
        return Ok(0);
    }
    let author = Some(comment.author.as_str());
    if let Some(id) = change.actor_id
        && let Some((_, _, true)) = fan_out::access_of(ex, doc, &[id]).await?.first()
    {
        fan_out::watch_unless_said(ex, doc, id, now).await?;
    }
    let one = (comment.id, comment.id, 1);
    let mut made =
        fan_out::tell_watchers(ex, "commented", doc, (author, change.actor_id), one, now).await?;
    crate::webhooks::events::commented(ex, doc, &comment, at).await?;
    let mut named = fan_out::people_named(ex, &mentions::names(&comment.body)).await?;
    named.retain(|id| Some(*id) != change.actor_id);
    for (user, access, _) in fan_out::access_of(ex, doc, &named).await? {
        if access.may_read() {
            let at = Some(comment.id);
            made +=
                fan_out::tell_document(ex, user, "comment_mention", doc, author, at, now).await?;
        }
    }
    Ok(made)
}

/// The people a share or a membership is for: the person, or the group's members.
async fn people(ex: &impl Conn, change: &Queued) -> Result<Vec<i64>, Error> {
    let mut people = match (change.user_id, change.group_id) {
        (Some(user), _) => vec![user],
        (None, Some(group)) => fan_out::group_members(ex, group).await?,
        (None, None) => Vec::new(),
    };
    people.retain(|p| Some(*p) != change.actor_id);
    Ok(people)
}

async fn actor_name(ex: &impl Conn, change: &Queued) -> Result<Option<String>, Error> {
    match change.actor_id {
        Some(id) => fan_out::name_of(ex, id).await,
        None => Ok(None),
    }
}

/// A document shared with a person or a group: each who may read it now is
/// told, and watches it from then on (unless they turned that off).
async fn shared(ex: &impl Conn, change: &Queued, doc: i64, now: i64) -> Result<u64, Error> {
    let people = people(ex, change).await?;
    let actor = actor_name(ex, change).await?;
    let mut made = 0;
    for (user, access, watch_own) in fan_out::access_of(ex, doc, &people).await? {
        if !access.may_read() {
            continue;
        }
        made +=
            fan_out::tell_document(ex, user, "shared", doc, actor.as_deref(), None, now).await?;
        if watch_own {
            fan_out::watch_unless_said(ex, doc, user, now).await?;
        }
    }
    Ok(made)
}

/// A person or a group added to a space: each is told.
async fn joined(ex: &impl Conn, change: &Queued, space: i64, now: i64) -> Result<u64, Error> {
    let people = people(ex, change).await?;
    let actor = actor_name(ex, change).await?;
    let mut made = 0;
    for user in people {
        made += fan_out::tell_space(ex, user, space, actor.as_deref(), now).await?;
    }
    Ok(made)
}
