//! Mail about what reached people. Written from their notices when due
//! (at most a mail a minute for "instant", else hourly or daily digests),
//! in one transaction with marking those notices mailed, into an outbox a
//! sender works through: each mail is claimed for a while so that one sender
//! sends it, marked sent, or tried again later with a growing wait. What a
//! mail names is checked against what its reader may read when it is written.

use std::time::Duration;

use askama::Template;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::Notice;
use crate::clock::now_ms;
use crate::config::{Config, SmtpSecurity};
use crate::db::notices::mail::{self as stored, Due, OutMail};
use crate::db::{Db, Error};

/// How often the mailer looks for mail to write and to send.
const POLL: Duration = Duration::from_secs(2);
/// A sender holds a claimed mail this long before another may try it.
const CLAIM_MS: i64 = 5 * 60 * 1000;
/// Tries before a mail is given up on (the waits between them double from a minute).
const MOST_TRIES: i64 = 8;
/// Sent and given-up mail is kept this long.
const KEEP_MS: i64 = 7 * 24 * 3600 * 1000;

/// Where mail goes out, from quire's settings.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// Where people reach quire, for the links in mails.
    base: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("from", &self.from).finish()
    }
}

impl Mailer {
    /// The mailer the settings describe; `None` without an SMTP host; `Err`
    /// for settings that cannot work.
    pub fn from_config(config: &Config) -> Result<Option<Self>, String> {
        let m = &config.mail;
        let Some(host) = m.smtp_host.as_deref().filter(|h| !h.trim().is_empty()) else {
            return Ok(None);
        };
        let from: Mailbox = m
            .mail_from
            .as_deref()
            .ok_or("QUIRE_SMTP_HOST is set: set QUIRE_MAIL_FROM too (who mail comes from)")?
            .parse()
            .map_err(|e| format!("QUIRE_MAIL_FROM is not an address: {e}"))?;
        let base = config
            .public_url
            .clone()
            .ok_or("QUIRE_SMTP_HOST is set: set QUIRE_PUBLIC_URL too, for the links in mails")?;
        let tls =
            || TlsParameters::new(host.to_owned()).map_err(|e| format!("QUIRE_SMTP_HOST: {e}"));
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(m.smtp_port)
            .timeout(Some(Duration::from_secs(30)));
        builder = match m.smtp_security {
            SmtpSecurity::Starttls => builder.tls(Tls::Required(tls()?)),
            SmtpSecurity::Tls => builder.tls(Tls::Wrapper(tls()?)),
            SmtpSecurity::None => builder.tls(Tls::None),
        };
        if let Some(user) = &m.smtp_user {
            let password = m.smtp_password()?.unwrap_or_default();
            builder = builder.credentials(Credentials::new(user.clone(), password));
        }
        Ok(Some(Self {
            transport: builder.build(),
            from,
            base: base.trim_end_matches('/').to_owned(),
        }))
    }
}

#[derive(Template)]
#[template(path = "mail/notices.txt")]
struct TextMail<'a> {
    notices: &'a [Notice],
    base: &'a str,
    how_often: &'a str,
    unsubscribe: &'a str,
}

#[derive(Template)]
#[template(path = "mail/notices.html")]
struct HtmlMail<'a> {
    subject: &'a str,
    notices: &'a [Notice],
    base: &'a str,
    how_often: &'a str,
    unsubscribe: &'a str,
}

fn how_often(every: &str) -> &'static str {
    match every {
        "instant" => "as things happen (at most one a minute)",
        "hourly" => "at most once an hour",
        _ => "at most once a day",
    }
}

/// Writes the mail due for one person, from their notices as they may read
/// them now; false when none of them is still theirs to read.
async fn write_one(db: &Db, mailer: &Mailer, who: &Due, now: i64) -> Result<bool, Error> {
    let tx = db.begin_write().await?;
    let notices: Vec<Notice> = stored::unmailed(&*tx, who.user_id)
        .await?
        .into_iter()
        .map(Notice::from_row)
        .collect();
    stored::mark_mailed(&*tx, who.user_id, now).await?;
    let Some(first) = notices.first() else {
        tx.commit().await?;
        return Ok(false);
    };
    let subject = match notices.len() {
        1 => format!("{}: {}", first.subject, first.what),
        n => format!("{n} notices in quire: {} and more", first.subject),
    };
    let unsubscribe = format!("{}/unsubscribe/{}", mailer.base, who.mail_key);
    let how = how_often(&who.mail_every);
    let render = |e: askama::Error| Error::Custom(format!("a mail failed to render: {e}"));
    let text_body = TextMail {
        notices: &notices,
        base: &mailer.base,
        how_often: how,
        unsubscribe: &unsubscribe,
    }
    .render()
    .map_err(render)?;
    let html_body = HtmlMail {
        subject: &subject,
        notices: &notices,
        base: &mailer.base,
        how_often: how,
        unsubscribe: &unsubscribe,
    }
    .render()
    .map_err(render)?;
    let mail = OutMail {
        id: 0,
        to_addr: who.email.clone(),
        subject,
        text_body,
        html_body,
        unsubscribe,
        attempts: 0,
    };
    stored::queue(&*tx, who.user_id, &mail, now).await?;
    tx.commit().await?;
    Ok(true)
}

/// Writes the mail that is due; how many mails.
pub async fn write_due(db: &Db, mailer: &Mailer) -> Result<usize, Error> {
    let now = now_ms();
    let due = stored::due(&db.read, now, 50).await?;
    let mut written = 0;
    for who in &due {
        if write_one(db, mailer, who, now).await? {
            written += 1;
        }
    }
    Ok(written)
}

fn message(mailer: &Mailer, mail: &OutMail) -> Result<Message, String> {
    let to: Mailbox = mail
        .to_addr
        .parse()
        .map_err(|e| format!("the address: {e}"))?;
    let header = |name: &str, value: String| {
        HeaderName::new_from_ascii(name.to_owned())
            .map(|n| HeaderValue::new(n, value))
            .map_err(|e| e.to_string())
    };
    Message::builder()
        .from(mailer.from.clone())
        .to(to)
        .subject(mail.subject.clone())
        .raw_header(header(
            "List-Unsubscribe",
            format!("<{}>", mail.unsubscribe),
        )?)
        .raw_header(header(
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click".to_owned(),
        )?)
        .multipart(MultiPart::alternative_plain_html(
            mail.text_body.clone(),
            mail.html_body.clone(),
        ))
        .map_err(|e| e.to_string())
}

/// Sends the mail that is due; how many were sent.
pub async fn send_due(db: &Db, mailer: &Mailer) -> Result<usize, Error> {
    let now = now_ms();
    let tx = db.begin_write().await?;
    let claimed = stored::claim(&*tx, now, now + CLAIM_MS, 20).await?;
    tx.commit().await?;
    let mut sent = 0;
    for mail in claimed {
        let result = match message(mailer, &mail) {
            Ok(msg) => mailer
                .transport
                .send(msg)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        let now = now_ms();
        let tx = db.begin_write().await?;
        match result {
            Ok(()) => {
                stored::sent(&*tx, mail.id, now).await?;
                sent += 1;
            }
            Err(e) => {
                let tries = mail.attempts + 1;
                let wait = 60_000 * (1i64 << tries.min(10));
                let give_up = (tries >= MOST_TRIES).then_some(now);
                tracing::warn!(error = %e, tries, "a mail could not be sent");
                crate::metrics::record_mail_failure();
                stored::failed(&*tx, mail.id, &e, now + wait, give_up).await?;
            }
        }
        tx.commit().await?;
    }
    Ok(sent)
}

/// Mail waiting to be sent, and mail given up on.
pub async fn outbox(db: &Db) -> Result<(i64, i64), Error> {
    stored::counts(&db.read).await
}

pub use crate::db::notices::mail::Failure;

/// The latest tries that failed, for the administrators.
pub async fn failures(db: &Db) -> Result<Vec<Failure>, Error> {
    stored::failures(&db.read, 20).await
}

/// Writes and sends mail until the database closes.
pub async fn run(db: Db, mailer: Mailer) {
    let mut last_tidy = 0;
    loop {
        if db.is_closed() {
            return;
        }
        if let Err(e) = write_due(&db, &mailer).await {
            tracing::warn!(error = %e, "writing mail failed; trying again");
        }
        if let Err(e) = send_due(&db, &mailer).await {
            tracing::warn!(error = %e, "sending mail failed; trying again");
        }
        let now = now_ms();
        if now - last_tidy > 3600 * 1000 {
            last_tidy = now;
            let tidied = async {
                let tx = db.begin_write().await?;
                stored::forget(&*tx, now - KEEP_MS).await?;
                tx.commit().await
            };
            if let Err(e) = tidied.await {
                tracing::warn!(error = %e, "forgetting old mail failed");
            }
        }
        tokio::time::sleep(POLL).await;
    }
}
