//! Two `quire serve` processes on one PostgreSQL database, each with its
//! mailer running: every mail waiting in the outbox reaches the SMTP server
//! once (each sender claims what it sends). PostgreSQL only.

use std::time::{Duration, Instant};

use crate::helpers::smtp::Smtp;
use crate::helpers::{fresh_postgres_database, postgres_server_or_skip};
use crate::instances::serve_with;

#[tokio::test]
async fn two_instances_send_each_waiting_mail_once() {
    let Some(server) = postgres_server_or_skip("two_instances_send_each_waiting_mail_once") else {
        return;
    };
    let url = fresh_postgres_database(&server).await;
    let smtp = Smtp::start().await;
    let mut config = quire::config::Config::from_env();
    config.database_url = url.clone();
    let db = quire::db::Db::open(&config).await.expect("migrating");
    for i in 0..40 {
        quire::db::query(
            "INSERT INTO mail_outbox
                 (to_addr, subject, text_body, html_body, unsubscribe, created_at, next_try_at)
             VALUES ($1, $2, 'x', '<p>x</p>', 'http://quire.example/unsubscribe/k', 0, 0)",
        )
        .bind(format!("p{i}@example.org"))
        .bind(format!("mail {i}"))
        .execute(&db.write)
        .await
        .expect("queueing a mail");
    }
    db.close().await;

    let settings = [
        ("QUIRE_SMTP_HOST", "127.0.0.1".to_owned()),
        ("QUIRE_SMTP_PORT", smtp.port.to_string()),
        ("QUIRE_SMTP_SECURITY", "none".to_owned()),
        ("QUIRE_MAIL_FROM", "quire <quire@example.org>".to_owned()),
        ("QUIRE_PUBLIC_URL", "http://quire.example".to_owned()),
    ];
    let (_one, _two) = tokio::join!(serve_with(&url, &settings), serve_with(&url, &settings));
    let started = Instant::now();
    while smtp.mails().len() < 40 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "only {} of 40 mails arrived",
            smtp.mails().len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Long enough for both mailers to look again.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let mut subjects: Vec<String> = smtp.mails().into_iter().map(|m| m.subject).collect();
    assert_eq!(subjects.len(), 40, "a mail went out twice");
    subjects.sort();
    subjects.dedup();
    assert_eq!(subjects.len(), 40);
}

/// The same for webhooks: deliveries waiting in the database reach the
/// receiver once each, though two instances send.
#[tokio::test]
async fn two_instances_post_each_waiting_webhook_once() {
    let Some(server) = postgres_server_or_skip("two_instances_post_each_waiting_webhook_once")
    else {
        return;
    };
    let url = fresh_postgres_database(&server).await;
    let receiver = crate::helpers::receiver::Receiver::start(0).await;
    let mut config = quire::config::Config::from_env();
    config.database_url = url.clone();
    let db = quire::db::Db::open(&config).await.expect("migrating");
    quire::accounts::create_user(&db, "alice", "a long enough password", true)
        .await
        .expect("an admin");
    let hook: i64 = quire::db::query_scalar(
        "INSERT INTO webhooks (url, secret, events, owner_id, created_at)
         SELECT $1, 'secret', 'document.created', id, 0 FROM users RETURNING id",
    )
    .bind(&receiver.url)
    .fetch_one(&db.write)
    .await
    .expect("a hook");
    for i in 0..40 {
        quire::db::query(
            "INSERT INTO webhook_deliveries (hook_id, event, body, created_at, next_try_at)
             VALUES ($1, 'document.created', $2, 0, 0)",
        )
        .bind(hook)
        .bind(format!("{{\"n\":{i}}}"))
        .execute(&db.write)
        .await
        .expect("queueing a delivery");
    }
    db.close().await;

    let settings = [("QUIRE_WEBHOOK_ALLOW_NETWORKS", "127.0.0.1/32".to_owned())];
    let (_one, _two) = tokio::join!(serve_with(&url, &settings), serve_with(&url, &settings));
    receiver.wait_for(40).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut bodies: Vec<String> = receiver.got().into_iter().map(|g| g.body).collect();
    assert_eq!(bodies.len(), 40, "a delivery went out twice");
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 40);
}
