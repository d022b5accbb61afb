//! Behind a reverse proxy: forwarded headers count only from a trusted proxy, for
//! sign-in limits, the audit log, public links and /metrics.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, anonymous, new_client, spawn_app, spawn_with};

async fn sign_in_as(
    app: &TestApp,
    forwarded_for: &str,
    username: &str,
    password: &str,
) -> StatusCode {
    let (client, csrf) = anonymous(&app.address).await;
    client
        .post(format!("{}/login", app.address))
        .header("X-Forwarded-For", forwarded_for)
        .form(&[
            ("username", username),
            ("password", password),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .expect("POST /login")
        .status()
}

#[tokio::test]
async fn behind_a_trusted_proxy_one_clients_failures_do_not_lock_out_everyone() {
    let app = &spawn_with(|c| c.trusted_proxies = "127.0.0.1".parse().expect("cidr")).await;
    for round in 0..6 {
        let tries = (0..10).map(|i| {
            let user = format!("guess{round}x{i}");
            async move { sign_in_as(app, "203.0.113.66", &user, "wrong password!").await }
        });
        futures::future::join_all(tries).await;
    }
    assert_eq!(
        sign_in_as(app, "203.0.113.66", "alice", PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS,
        "the guessing address is refused"
    );

    assert_eq!(
        sign_in_as(app, "198.51.100.7", "alice", PASSWORD).await,
        StatusCode::SEE_OTHER,
        "another client behind the same proxy signs in"
    );
    let (detail,): (String,) = quire::db::query_as(
        "SELECT detail FROM audit_log WHERE event = 'login.failed' ORDER BY id LIMIT 1",
    )
    .fetch_one(&app.db.read)
    .await
    .expect("a failure was audited");
    assert!(detail.ends_with("from 203.0.113.66"), "{detail}");
}

#[tokio::test]
async fn forwarded_headers_from_an_untrusted_peer_do_not_choose_the_address() {
    let app = &spawn_app().await;
    for round in 0..5 {
        let tries = (0..10).map(|i| {
            let (user, from) = (
                format!("guess{round}x{i}"),
                format!("203.0.113.{}", round * 10 + i),
            );
            async move { sign_in_as(app, &from, &user, "wrong password!").await }
        });
        futures::future::join_all(tries).await;
    }
    assert_eq!(
        sign_in_as(app, "198.51.100.7", "bob", "wrong password!").await,
        StatusCode::TOO_MANY_REQUESTS,
        "a made-up X-Forwarded-For does not escape the limit"
    );
}

async fn public_link_page(app: &TestApp, headers: &[(&str, &str)]) -> String {
    let id = app.create_document("Published", "for everyone").await;
    let res = app
        .post_form(&format!("/d/{id}/share"), &[("action", "link-on")])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let mut req = app.client.get(format!("{}/d/{id}/share", app.address));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("GET").text().await.expect("body")
}

#[tokio::test]
async fn a_public_link_is_built_on_the_public_url_when_one_is_set() {
    let app = spawn_with(|c| c.public_url = Some("https://docs.example.org".into())).await;
    let page = public_link_page(&app, &[("X-Forwarded-Host", "evil.example")]).await;
    assert!(page.contains("https://docs.example.org/p/"), "{page}");
    assert!(!page.contains("evil.example"));
}

#[tokio::test]
async fn a_public_link_ignores_forwarded_hosts_from_an_untrusted_peer() {
    let app = spawn_app().await;
    let page = public_link_page(
        &app,
        &[
            ("X-Forwarded-Host", "evil.example"),
            ("X-Forwarded-Proto", "https"),
            ("Forwarded", "host=evil.example"),
        ],
    )
    .await;
    assert!(!page.contains("evil.example"), "{page}");
    assert!(page.contains("http://127.0.0.1:"), "{page}");
}

#[tokio::test]
async fn a_public_link_takes_scheme_and_host_from_a_trusted_proxy() {
    let app = spawn_with(|c| c.trusted_proxies = "127.0.0.0/8".parse().expect("cidr")).await;
    let page = public_link_page(
        &app,
        &[
            ("X-Forwarded-Host", "docs.example.org"),
            ("X-Forwarded-Proto", "https"),
        ],
    )
    .await;
    assert!(page.contains("https://docs.example.org/p/"), "{page}");
}

#[tokio::test]
async fn metrics_is_not_served_through_a_trusted_proxy_without_the_token() {
    let app = spawn_with(|c| c.trusted_proxies = "127.0.0.1".parse().expect("cidr")).await;
    let res = new_client()
        .get(format!("{}/metrics", app.address))
        .send()
        .await
        .expect("GET /metrics");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let app = spawn_with(|c| {
        c.trusted_proxies = "127.0.0.1".parse().expect("cidr");
        c.metrics_token = Some("scrape-token".parse().expect("token"));
    })
    .await;
    let res = new_client()
        .get(format!("{}/metrics", app.address))
        .bearer_auth("scrape-token")
        .send()
        .await
        .expect("GET /metrics");
    assert_eq!(res.status(), StatusCode::OK);
}
