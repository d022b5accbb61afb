//! Mail, as stored: each person's address and how often they want mail, the
//! notices not yet mailed, and the outbox a sender works through.

use std::sync::LazyLock;

use super::inbox::NoticeRow;
use super::readable;
use crate::db::{Conn, Error};

/// A person's mail settings: address and how often ('instant', 'hourly',
/// 'daily', 'off').
pub async fn settings(ex: &impl Conn, user: i64) -> Result<(Option<String>, String), Error> {
    crate::db::query_as("SELECT email, mail_every FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(ex)
        .await
}

/// Sets a person's address and how often; their unsubscribe key is made once
/// (`key` when they have none).
pub async fn set_settings(
    ex: &impl Conn,
    user: i64,
    email: Option<&str>,
    every: &str,
    key: &str,
) -> Result<(), Error> {
    crate::db::query(
        "UPDATE users SET email = $2, mail_every = $3, mail_key = coalesce(mail_key, $4)
         WHERE id = $1",
    )
    .bind(user)
    .bind(email)
    .bind(every)
    .bind(key)
    .execute(ex)
    .await?;
    Ok(())
}

/// The address an unsubscribe key mails, and whether mail is on for it.
pub async fn by_key(ex: &impl Conn, key: &str) -> Result<Option<(String, bool)>, Error> {
    let row: Option<(Option<String>, String)> =
        crate::db::query_as("SELECT email, mail_every FROM users WHERE mail_key = $1")
            .bind(key)
            .fetch_optional(ex)
            .await?;
    Ok(row.map(|(email, every)| (email.unwrap_or_default(), every != "off")))
}

/// Turns mail off for the person an unsubscribe key belongs to; false for no such key.
pub async fn unsubscribe(ex: &impl Conn, key: &str) -> Result<bool, Error> {
    let done = crate::db::query("UPDATE users SET mail_every = 'off' WHERE mail_key = $1")
        .bind(key)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Someone mail is due for: unread notices not mailed yet, and their last
/// mail far enough back for how often they want mail.
#[derive(Debug, Clone)]
pub struct Due {
    pub user_id: i64,
    pub email: String,
    pub mail_key: String,
    pub mail_every: String,
}
crate::db::from_row!(Due {
    user_id,
    email,
    mail_key,
    mail_every
});

pub async fn due(ex: &impl Conn, now: i64, most: i64) -> Result<Vec<Due>, Error> {
    crate::db::query_as::<Due>(
        "SELECT u.id AS user_id, u.email, u.mail_key, u.mail_every FROM users AS u
         WHERE u.email IS NOT NULL AND u.mail_key IS NOT NULL AND u.disabled_at IS NULL
           AND u.mail_every <> 'off'
           AND coalesce(u.mailed_at, 0) <= $1 - CASE u.mail_every
               WHEN 'instant' THEN 60000 WHEN 'hourly' THEN 3600000 ELSE 86400000 END
           AND EXISTS (SELECT 1 FROM notices AS n
                       WHERE n.user_id = u.id AND n.read_at IS NULL AND n.mailed_at IS NULL)
         ORDER BY u.id LIMIT $2",
    )
    .bind(now)
    .bind(most)
    .fetch_all(ex)
    .await
}

/// The person's unread notices not mailed yet, about what they may read now.
pub async fn unmailed(ex: &impl Conn, user: i64) -> Result<Vec<NoticeRow>, Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT n.id, n.kind, n.actor, n.first_rev, n.last_rev, n.count, n.updated_at,
                    n.read_at, d.id AS doc_id, d.title AS doc_title, sp.id AS space_id,
                    sp.name AS space_name
             FROM notices AS n
             LEFT JOIN documents AS d ON d.seq = n.doc_seq
             LEFT JOIN spaces AS sp ON sp.id = n.space_id
             WHERE n.user_id = $1 AND n.read_at IS NULL AND n.mailed_at IS NULL AND {}
             ORDER BY n.updated_at, n.id LIMIT 100",
            readable("$1")
        )
    });
    crate::db::query_as::<NoticeRow>(SQL.as_str())
        .bind(user)
        .fetch_all(ex)
        .await
}

/// Every unread notice of the person's counts as mailed (those about what
/// they can no longer read are never mailed), and their mail as written now.
pub async fn mark_mailed(ex: &impl Conn, user: i64, now: i64) -> Result<(), Error> {
    crate::db::query(
        "UPDATE notices SET mailed_at = $2
         WHERE user_id = $1 AND read_at IS NULL AND mailed_at IS NULL",
    )
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    crate::db::query("UPDATE users SET mailed_at = $2 WHERE id = $1")
        .bind(user)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// A mail to send.
#[derive(Debug, Clone)]
pub struct OutMail {
    pub id: i64,
    pub to_addr: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub unsubscribe: String,
    pub attempts: i64,
}
crate::db::from_row!(OutMail {
    id,
    to_addr,
    subject,
    text_body,
    html_body,
    unsubscribe,
    attempts
});

pub async fn queue(ex: &impl Conn, user: i64, mail: &OutMail, now: i64) -> Result<(), Error> {
    crate::db::query(
        "INSERT INTO mail_outbox
             (user_id, to_addr, subject, text_body, html_body, unsubscribe, created_at,
              next_try_at, attempts)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 0)",
    )
    .bind(user)
    .bind(&mail.to_addr)
    .bind(&mail.subject)
    .bind(&mail.text_body)
    .bind(&mail.html_body)
    .bind(&mail.unsubscribe)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Claims up to `most` mails due at `now` until `until`: no other sender
/// takes them meanwhile (on PostgreSQL rows another instance holds are
/// skipped, not waited for).
pub async fn claim(ex: &impl Conn, now: i64, until: i64, most: i64) -> Result<Vec<OutMail>, Error> {
    let lock = match crate::db::is_postgres(ex) {
        true => " FOR UPDATE SKIP LOCKED",
        false => "",
    };
    let rows = crate::db::query_as::<OutMail>(format!(
        "SELECT id, to_addr, subject, text_body, html_body, unsubscribe, attempts
         FROM mail_outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_try_at <= $1
           AND (claimed_until IS NULL OR claimed_until < $1)
         ORDER BY next_try_at, id LIMIT $2{lock}"
    ))
    .bind(now)
    .bind(most)
    .fetch_all(ex)
    .await?;
    for row in &rows {
        crate::db::query("UPDATE mail_outbox SET claimed_until = $2 WHERE id = $1")
            .bind(row.id)
            .bind(until)
            .execute(ex)
            .await?;
    }
    Ok(rows)
}

pub async fn sent(ex: &impl Conn, id: i64, now: i64) -> Result<(), Error> {
    crate::db::query("UPDATE mail_outbox SET sent_at = $2, claimed_until = NULL WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// A try failed: another at `next`, or none (`give_up`).
pub async fn failed(
    ex: &impl Conn,
    id: i64,
    error: &str,
    next: i64,
    give_up: Option<i64>,
) -> Result<(), Error> {
    crate::db::query(
        "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, next_try_at = $3,
             failed_at = $4, claimed_until = NULL
         WHERE id = $1",
    )
    .bind(id)
    .bind(error)
    .bind(next)
    .bind(give_up)
    .execute(ex)
    .await?;
    Ok(())
}

/// Mail waiting to be sent, and mail given up on.
pub async fn counts(ex: &impl Conn) -> Result<(i64, i64), Error> {
    crate::db::query_as(
        "SELECT CAST(count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL) AS BIGINT),
                CAST(count(*) FILTER (WHERE failed_at IS NOT NULL) AS BIGINT)
         FROM mail_outbox",
    )
    .fetch_one(ex)
    .await
}

/// A mail whose last try failed.
#[derive(Debug, Clone)]
pub struct Failure {
    pub to_addr: String,
    pub subject: String,
    pub attempts: i64,
    pub error: String,
    /// No more tries.
    pub given_up: bool,
}
crate::db::from_row!(Failure {
    to_addr,
    subject,
    attempts,
    error,
    given_up
});

/// The latest failed tries.
pub async fn failures(ex: &impl Conn, most: i64) -> Result<Vec<Failure>, Error> {
    crate::db::query_as::<Failure>(
        "SELECT to_addr, subject, attempts, coalesce(last_error, '') AS error,
                CAST(CASE WHEN failed_at IS NULL THEN 0 ELSE 1 END AS BIGINT) AS given_up
         FROM mail_outbox WHERE last_error IS NOT NULL AND sent_at IS NULL
         ORDER BY id DESC LIMIT $1",
    )
    .bind(most)
    .fetch_all(ex)
    .await
}

/// Sent or given-up mail older than `before` goes.
pub async fn forget(ex: &impl Conn, before: i64) -> Result<u64, Error> {
    let done = crate::db::query(
        "DELETE FROM mail_outbox WHERE (sent_at IS NOT NULL OR failed_at IS NOT NULL)
           AND created_at < $1",
    )
    .bind(before)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Gives `user` the address `email` (with an unsubscribe key) when they have
/// none: what their identity provider vouches for, never over their own choice.
pub async fn set_if_none(ex: &impl Conn, user: i64, email: &str, key: &str) -> Result<(), Error> {
    crate::db::query(
        "UPDATE users SET email = $2, mail_key = coalesce(mail_key, $3)
         WHERE id = $1 AND email IS NULL",
    )
    .bind(user)
    .bind(email)
    .bind(key)
    .execute(ex)
    .await?;
    Ok(())
}
