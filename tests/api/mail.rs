//! Mail about what reached people, received by a real SMTP server (aiosmtpd):
//! who gets it, what it names, digests, the unsubscribe link, and a server
//! that is away for a while.

use std::time::Duration;

use quire::config::SmtpSecurity;
use quire::notices::mail::{Mailer, send_due, write_due};
use reqwest::StatusCode;

use crate::helpers::smtp::{Mail, Smtp};
use crate::helpers::{Person, TestApp, new_client, spawn_with, told};

async fn with_mail(smtp: &Smtp) -> TestApp {
    let port = smtp.port;
    spawn_with(move |c| {
        c.mail.smtp_host = Some("127.0.0.1".into());
        c.mail.smtp_port = port;
        c.mail.smtp_security = SmtpSecurity::None;
        c.mail.mail_from = Some("quire <quire@example.org>".into());
        c.public_url = Some("http://quire.example".into());
    })
    .await
}

/// Tells, writes and sends what is due until `n` mails have arrived in all
/// (the server's own mailer may send some of them first).
async fn delivered(app: &TestApp, smtp: &Smtp, n: usize) -> Vec<Mail> {
    let mailer = Mailer::from_config(&app.config).unwrap().unwrap();
    for _ in 0..100 {
        told(app).await;
        write_due(&app.db, &mailer).await.unwrap();
        send_due(&app.db, &mailer).await.unwrap();
        let mails = smtp.mails();
        if mails.len() >= n {
            return mails;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{n} mails did not arrive: {:?}", smtp.mails());
}

async fn mail_me(person: &Person, email: &str, every: &str) {
    let res = person
        .post("/account/mail", &[("email", email), ("every", every)])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

async fn share(app: &TestApp, id: &str, name: &str) {
    let fields = [("action", "share"), ("username", name), ("role", "read")];
    let res = app.post_form(&format!("/d/{id}/share"), &fields).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_share_is_mailed_with_a_link_and_a_one_click_unsubscribe() {
    let smtp = Smtp::start().await;
    let app = with_mail(&smtp).await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    mail_me(&bob, "bob@example.org", "instant").await;
    mail_me(&carol, "carol@example.org", "instant").await;
    let id = app.create_document("Quarterly plan", "v1").await;
    share(&app, &id, "bob").await;

    let mails = delivered(&app, &smtp, 1).await;
    assert_eq!(mails.len(), 1, "carol is told nothing: {mails:?}");
    let mail = &mails[0];
    assert_eq!(mail.to, "bob@example.org");
    assert_eq!(mail.subject, "Quarterly plan: alice shared it with you");
    assert!(
        mail.text.contains("http://quire.example/inbox/"),
        "{}",
        mail.text
    );
    assert!(
        mail.html
            .contains(r#"<a href="http://quire.example/inbox/"#),
        "{}",
        mail.html
    );
    assert!(
        mail.unsubscribe
            .starts_with("<http://quire.example/unsubscribe/")
    );
    assert_eq!(mail.unsubscribe_post, "List-Unsubscribe=One-Click");

    // The one-click unsubscribe a mail program sends: no session, no token.
    let url = mail.unsubscribe.trim_matches(['<', '>']);
    let path = url.trim_start_matches("http://quire.example");
    // Opened in a browser: a page that asks first, with a button.
    let page = new_client()
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("Stop the mails quire sends to bob@example.org about"),
        "{page}"
    );
    let res = new_client()
        .post(format!("{}{path}", app.address))
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let every: Vec<(String, String)> =
        quire::db::query_as("SELECT username, mail_every FROM users ORDER BY username")
            .fetch_all(&app.db.read)
            .await
            .unwrap();
    let every: Vec<(&str, &str)> = every
        .iter()
        .map(|(u, e)| (u.as_str(), e.as_str()))
        .collect();
    assert!(
        every.contains(&("bob", "off")) && every.contains(&("carol", "instant")),
        "{every:?}"
    );
    // A key that is no one's changes nothing.
    let res = new_client()
        .post(format!("{}/unsubscribe/{}", app.address, "0".repeat(64)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Unsubscribed: the next share reaches bob's inbox, not his mail.
    let other = app.create_document("Offsite agenda", "x").await;
    share(&app, &other, "bob").await;
    told(&app).await;
    share(&app, &other, "carol").await;
    let mails = delivered(&app, &smtp, 2).await;
    assert_eq!(mails.len(), 2);
    assert_eq!(mails[1].to, "carol@example.org");
}

#[tokio::test]
async fn a_digest_gathers_notices_and_leaves_out_what_its_reader_lost() {
    let smtp = Smtp::start().await;
    let app = with_mail(&smtp).await;
    let bob = Person::new(&app, "bob").await;
    mail_me(&bob, "bob@example.org", "daily").await;
    let kept = app.create_document("Hiring plan", "a").await;
    let lost = app.create_document("Layoff list", "b").await;
    share(&app, &kept, "bob").await;
    share(&app, &lost, "bob").await;
    app.save(&kept, "Hiring plan", "a2", 1).await;
    told(&app).await;
    // Access to one is taken back before the digest is written.
    let bob_id: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'bob'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let unshare = [("action", "unshare"), ("user_id", &bob_id.to_string()[..])];
    app.post_form(&format!("/d/{lost}/share"), &unshare).await;

    let mails = delivered(&app, &smtp, 1).await;
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert_eq!(mail.subject, "2 notices in quire: Hiring plan and more");
    assert!(mail.text.contains("alice shared it with you"));
    assert!(mail.text.contains("alice edited it"));
    for part in [&mail.subject, &mail.text, &mail.html] {
        assert!(
            !part.contains("Layoff"),
            "a title the reader lost leaked: {part}"
        );
    }
    // A daily digest: nothing more today, however much happens.
    app.save(&kept, "Hiring plan", "a3", 2).await;
    told(&app).await;
    let mailer = Mailer::from_config(&app.config).unwrap().unwrap();
    assert_eq!(write_due(&app.db, &mailer).await.unwrap(), 0);
}

#[tokio::test]
async fn mail_waits_while_the_server_is_away_and_is_sent_once_when_it_is_back() {
    let mut smtp = Smtp::start().await;
    let app = with_mail(&smtp).await;
    let bob = Person::new(&app, "bob").await;
    mail_me(&bob, "bob@example.org", "instant").await;
    smtp.stop();
    let id = app.create_document("Incident review", "x").await;
    share(&app, &id, "bob").await;
    told(&app).await;
    let mailer = Mailer::from_config(&app.config).unwrap().unwrap();
    write_due(&app.db, &mailer).await.unwrap();
    send_due(&app.db, &mailer).await.unwrap();
    let (tries, error): (i64, Option<String>) =
        quire::db::query_as("SELECT attempts, last_error FROM mail_outbox")
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    assert!(tries >= 1 && error.is_some());
    let (_, metrics) = app.get_text("/metrics").await;
    assert!(
        metrics.contains(r#"quire_mail_outbox{state="waiting"} 1"#),
        "{metrics}"
    );
    assert!(!metrics.contains("quire_mail_failures_total 0"));
    let (_, admin) = app.get_text("/admin/users").await;
    assert!(admin.contains("1 waiting to be sent"), "{admin}");
    assert!(admin.contains("Incident review"));

    // Back: the retry (made due now) sends it, once.
    smtp.restart();
    quire::db::query("UPDATE mail_outbox SET next_try_at = 0")
        .execute(&app.db.write)
        .await
        .unwrap();
    let mails = delivered(&app, &smtp, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    send_due(&app.db, &mailer).await.unwrap();
    assert_eq!(smtp.mails().len(), 1, "{mails:?}");
    let sent: i64 =
        quire::db::query_scalar("SELECT count(*) FROM mail_outbox WHERE sent_at IS NOT NULL")
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    assert_eq!(sent, 1);
}

#[tokio::test]
async fn mail_settings_refuse_what_cannot_be_an_address() {
    let smtp = Smtp::start().await;
    let app = with_mail(&smtp).await;
    let bob = Person::new(&app, "bob").await;
    for (email, every) in [("not an address", "daily"), ("bob@example.org", "weekly")] {
        let res = bob
            .post("/account/mail", &[("email", email), ("every", every)])
            .await;
        assert_eq!(
            res.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{email} {every}"
        );
    }
    let page = bob.text("/account").await;
    assert!(page.contains("Email for your notices"));
}
