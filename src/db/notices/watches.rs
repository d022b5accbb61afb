//! Who watches what, as each person set it.

use crate::db::{Conn, Error};

/// Whether `user` watches document `doc_seq`: as they said, else as the rule
/// says (they watch what they saved, unless they turned that off), which the
/// notifier may not have written down yet.
pub async fn document(ex: &impl Conn, user: i64, doc_seq: i64) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar(
        "SELECT CAST(CASE WHEN w.watching IS NOT NULL THEN w.watching
                     WHEN u.watch_own = 1 AND EXISTS (SELECT 1 FROM revisions AS r
                         WHERE r.doc_seq = $1 AND r.author = u.username) THEN 1
                     ELSE 0 END AS BIGINT)
         FROM users AS u
         LEFT JOIN document_watches AS w ON w.doc_seq = $1 AND w.user_id = u.id
         WHERE u.id = $2",
    )
    .bind(doc_seq)
    .bind(user)
    .fetch_optional(ex)
    .await?;
    Ok(found == Some(1))
}

/// Sets whether `user` watches document `doc_seq`.
pub async fn set_document(
    ex: &impl Conn,
    user: i64,
    doc_seq: i64,
    watching: bool,
    now: i64,
) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO document_watches (doc_seq, user_id, watching, created_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (doc_seq, user_id) DO UPDATE SET watching = excluded.watching",
    )
    .bind(doc_seq)
    .bind(user)
    .bind(i64::from(watching))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Whether `user` watches space `space_id`'s folder `folder` ('' the whole space).
pub async fn place(ex: &impl Conn, user: i64, space_id: i64, folder: &str) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar(
        "SELECT 1 FROM place_watches WHERE space_id = $1 AND folder = $2 AND user_id = $3",
    )
    .bind(space_id)
    .bind(folder)
    .bind(user)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Sets whether `user` watches space `space_id`'s folder `folder`.
pub async fn set_place(
    ex: &impl Conn,
    user: i64,
    space_id: i64,
    folder: &str,
    watching: bool,
    now: i64,
) -> Result<(), Error> {
    let q = if watching {
        crate::db::query(
            "INSERT INTO place_watches (space_id, folder, user_id, created_at)
             VALUES ($1, $2, $3, $4) ON CONFLICT (space_id, folder, user_id) DO NOTHING",
        )
        .bind(space_id)
        .bind(folder)
        .bind(user)
        .bind(now)
    } else {
        crate::db::query(
            "DELETE FROM place_watches WHERE space_id = $1 AND folder = $2 AND user_id = $3",
        )
        .bind(space_id)
        .bind(folder)
        .bind(user)
    };
    q.execute(ex).await?;
    Ok(())
}

/// Whether `user` watches what they create, edit or are mentioned in.
pub async fn watch_own(ex: &impl Conn, user: i64) -> Result<bool, Error> {
    let found: Option<i64> =
        crate::db::query_scalar("SELECT CAST(watch_own AS BIGINT) FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(ex)
            .await?;
    Ok(found == Some(1))
}

pub async fn set_watch_own(ex: &impl Conn, user: i64, on: bool) -> Result<(), Error> {
    crate::db::query("UPDATE users SET watch_own = $2 WHERE id = $1")
        .bind(user)
        .bind(i64::from(on))
        .execute(ex)
        .await?;
    Ok(())
}
