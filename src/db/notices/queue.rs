//! The queue of changes not yet told. A revision queues itself (a trigger,
//! migrations/*/0022_notices.sql); a share, a space membership and a comment
//! are queued here, in the transaction that makes them. The notifier takes a batch in
//! order inside its own write transaction and deletes what it told, so a crash
//! loses nothing and tells nothing twice.

use crate::db::teams::spaces::Who;
use crate::db::{Conn, Db, Error};

fn ids(whom: Who) -> (Option<i64>, Option<i64>) {
    match whom {
        Who::Person(id) => (Some(id), None),
        Who::Group(id) => (None, Some(id)),
    }
}

/// One change waiting to be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub id: i64,
    pub kind: String,
    pub doc_seq: Option<i64>,
    pub rev: Option<i64>,
    pub space_id: Option<i64>,
    pub user_id: Option<i64>,
    pub group_id: Option<i64>,
    pub actor_id: Option<i64>,
    pub comment_id: Option<i64>,
    pub detail: Option<String>,
}
crate::db::from_row!(Queued {
    id,
    kind,
    doc_seq,
    rev,
    space_id,
    user_id,
    group_id,
    actor_id,
    comment_id,
    detail
});

/// Queues "`actor` shared document `doc_seq` with `whom`".
pub async fn shared(
    ex: &impl Conn,
    doc_seq: i64,
    whom: Who,
    actor: i64,
    now: i64,
) -> Result<(), Error> {
    insert(ex, ("share", Some(doc_seq), None), whom, actor, now).await
}

/// Queues "`actor` added `whom` to space `space_id`".
pub async fn joined(
    ex: &impl Conn,
    space_id: i64,
    whom: Who,
    actor: i64,
    now: i64,
) -> Result<(), Error> {
    insert(ex, ("space", None, Some(space_id)), whom, actor, now).await
}

/// Queues "`actor` wrote comment `comment_id` on document `doc_seq`".
pub async fn commented(
    ex: &impl Conn,
    doc_seq: i64,
    comment_id: i64,
    actor: i64,
    now: i64,
) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO change_queue (kind, doc_seq, comment_id, actor_id, created_at)
         VALUES ('comment', $1, $2, $3, $4)",
    )
    .bind(doc_seq)
    .bind(comment_id)
    .bind(actor)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Queues another event of document `doc_seq` (none: it is gone), its
/// particulars in `detail` (JSON), done by `actor`.
pub async fn event(
    ex: &impl Conn,
    doc_seq: Option<i64>,
    detail: &str,
    actor: Option<i64>,
    now: i64,
) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO change_queue (kind, doc_seq, detail, actor_id, created_at)
         VALUES ('event', $1, $2, $3, $4)",
    )
    .bind(doc_seq)
    .bind(detail)
    .bind(actor)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

async fn insert(
    ex: &impl Conn,
    (kind, doc_seq, space_id): (&str, Option<i64>, Option<i64>),
    whom: Who,
    actor: i64,
    now: i64,
) -> Result<(), Error> {
    let (user, group) = ids(whom);
    crate::db::query(
        "INSERT INTO change_queue
             (kind, doc_seq, space_id, user_id, group_id, actor_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(kind)
    .bind(doc_seq)
    .bind(space_id)
    .bind(user)
    .bind(group)
    .bind(actor)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Whether anything waits, asked of a reader: an empty queue never takes the
/// writer.
pub async fn any(db: &Db) -> Result<bool, Error> {
    let first: Option<i64> = crate::db::query_scalar("SELECT id FROM change_queue LIMIT 1")
        .fetch_optional(&db.read)
        .await?;
    Ok(first.is_some())
}

/// How many changes wait (for `/metrics`).
pub async fn waiting(db: &Db) -> Result<i64, Error> {
    crate::db::query_scalar("SELECT count(*) FROM change_queue")
        .fetch_one(&db.read)
        .await
}

/// The oldest `most` changes, claimed by this transaction: on PostgreSQL rows
/// another instance holds are skipped, not waited for.
pub async fn take(ex: &impl Conn, most: i64) -> Result<Vec<Queued>, Error> {
    let lock = match crate::db::is_postgres(ex) {
        true => " FOR UPDATE SKIP LOCKED",
        false => "",
    };
    crate::db::query_as::<Queued>(format!(
        "SELECT id, kind, doc_seq, rev, space_id, user_id, group_id, actor_id, comment_id, detail
         FROM change_queue ORDER BY id LIMIT $1{lock}"
    ))
    .bind(most)
    .fetch_all(ex)
    .await
}

/// Claims change `id` for this transaction by deleting it: false when it is
/// gone already (another notifier told it).
pub async fn claim(ex: &impl Conn, id: i64) -> Result<bool, Error> {
    let gone = crate::db::query("DELETE FROM change_queue WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(gone.rows_affected() == 1)
}

/// Deletes told changes.
pub async fn done(ex: &impl Conn, ids: &[i64]) -> Result<(), Error> {
    for chunk in ids.chunks(200) {
        let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "DELETE FROM change_queue WHERE id IN ({})",
            marks.join(", ")
        );
        let mut q = crate::db::query(sql);
        for id in chunk {
            q = q.bind(*id);
        }
        q.execute(ex).await?;
    }
    Ok(())
}
