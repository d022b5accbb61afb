//! Webhooks against a real HTTP receiver on loopback: who may make one, what
//! each event says and to whom (only what the hook's maker may read), every
//! post's signature, retries until a failing receiver recovers (each event
//! taken once), and posts refused to this machine unless allowed.

use hmac::{Hmac, Mac};
use reqwest::StatusCode;
use sha2::Sha256;

use crate::helpers::receiver::{Got, Receiver};
use crate::helpers::{Person, TestApp, create_in, location, spawn_with, team_space};

/// A server whose webhooks may post to loopback, retrying after 50 ms.
async fn app_posting_to_loopback() -> TestApp {
    spawn_with(|c| {
        c.hooks.webhook_allow_networks = "127.0.0.1/32".parse().unwrap();
        c.hooks.webhook_retry_ms = 50;
    })
    .await
}

/// The admin adds a hook for `space` ("" every space); its id.
async fn add_hook(app: &TestApp, url: &str, space: &str, events: &[&str]) -> i64 {
    let mut fields = vec![("url", url), ("space", space)];
    let names: Vec<String> = events.iter().map(|e| format!("event:{e}")).collect();
    for n in &names {
        fields.push((n.as_str(), "on"));
    }
    let res = app.post_form("/webhooks", &fields).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "add a hook");
    location(&res)
        .trim_start_matches("/webhooks/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

async fn secret(app: &TestApp, hook: i64) -> String {
    quire::db::query_scalar("SELECT secret FROM webhooks WHERE id = $1")
        .bind(hook)
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

/// Checks a post's signature as a receiver would (the README's recipe).
fn verify(secret: &str, got: &Got) {
    let (t, v1) = got.signature.split_once(',').expect("t=…,v1=…");
    let t = t.strip_prefix("t=").expect("t=");
    let v1 = v1.strip_prefix("v1=").expect("v1=");
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{}", got.body).as_bytes());
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v1, expected, "the signature of {}", got.body);
    let age = quire::clock::now_ms() / 1000 - t.parse::<i64>().unwrap();
    assert!((0..60).contains(&age), "a fresh time: {age} s");
}

const ALL: [&str; 10] = [
    "document.created",
    "document.updated",
    "document.moved",
    "document.trashed",
    "document.restored",
    "document.deleted",
    "comment.added",
    "suggestion.opened",
    "suggestion.accepted",
    "suggestion.declined",
];

#[tokio::test]
async fn each_event_reaches_the_hook_signed_and_names_only_what_its_maker_may_read() {
    let app = app_posting_to_loopback().await;
    let bob = Person::new(&app, "bob").await;
    let receiver = Receiver::start(0).await;
    let hook = add_hook(&app, &receiver.url, "", &ALL).await;

    // Only admins and space managers make hooks; bob sees none of alice's.
    let (status, _) = bob.page("/webhooks").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, page) = bob.page(&format!("/webhooks/{hook}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{page}");

    // bob's private document: alice may not read it, so her hook hears nothing of it.
    let res = bob
        .post(
            "/docs",
            &[
                ("title", "Bob's secret plan"),
                ("body", "x"),
                ("space", "personal"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let team = team_space(&app).await;
    // Each step is told before the next: an event of a document already
    // deleted when the notifier comes to it is not told.
    let id = create_in(&app, "Release checklist", "- build\n- tag", &team).await;
    receiver.wait_for(1).await;
    app.save(&id, "Release checklist", "- build\n- tag\n- announce", 1)
        .await;
    receiver.wait_for(2).await;
    let res = bob
        .post(
            &format!("/d/{id}/comments"),
            &[("body", "Tag after the build?")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    receiver.wait_for(3).await;
    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    receiver.wait_for(4).await;
    app.post_form(&format!("/d/{id}/restore"), &[]).await;
    receiver.wait_for(5).await;
    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    receiver.wait_for(6).await;
    let res = app.post_form("/trash/empty", &[("confirm", "yes")]).await;
    assert!(res.status().is_redirection(), "{}", res.status());

    let got = receiver.wait_for(7).await;
    let secret = secret(&app, hook).await;
    for g in &got {
        verify(&secret, g);
        assert!(!g.body.contains("Bob's secret plan"), "{}", g.body);
        assert!(!g.body.contains("- tag"), "never the text: {}", g.body);
    }
    let events: Vec<&str> = got.iter().map(|g| g.event.as_str()).collect();
    assert_eq!(
        events,
        [
            "document.created",
            "document.updated",
            "comment.added",
            "document.trashed",
            "document.restored",
            "document.trashed",
            "document.deleted"
        ]
    );
    let updated: serde_json::Value = serde_json::from_str(&got[1].body).unwrap();
    assert_eq!(updated["document"]["title"], "Release checklist");
    assert_eq!(updated["document"]["space"]["name"], "Team");
    assert_eq!(updated["actor"], "alice");
    assert_eq!(updated["revisions"]["from"], 1);
    assert_eq!(updated["revisions"]["to"], 2);
    let comment: serde_json::Value = serde_json::from_str(&got[2].body).unwrap();
    assert_eq!(comment["comment"]["author"], "bob");
    assert_eq!(comment["comment"]["body"], "Tag after the build?");
    let deleted: serde_json::Value = serde_json::from_str(&got[6].body).unwrap();
    assert_eq!(deleted["document"]["id"], id.as_str());

    // The hook's page lists them as delivered, with the answer.
    let (_, page) = app.get_text(&format!("/webhooks/{hook}")).await;
    assert_eq!(page.matches("delivered ").count(), 7, "{page}");
    assert!(page.contains("200 in "), "{page}");
}

#[tokio::test]
async fn a_receiver_that_fails_then_recovers_takes_each_event_once() {
    let app = app_posting_to_loopback().await;
    let receiver = Receiver::start(3).await;
    let hook = add_hook(&app, &receiver.url, "", &["document.created"]).await;
    let team = team_space(&app).await;
    create_in(&app, "Flaky one", "x", &team).await;
    create_in(&app, "Flaky two", "x", &team).await;

    let got = receiver.wait_for(2).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let got_later = receiver.got();
    assert_eq!(got_later.len(), 2, "each event once: {got_later:#?}");
    assert_ne!(got[0].delivery, got[1].delivery);
    assert_eq!(receiver.arrived(), 5, "three refused, two taken");
    let tries: i64 = quire::db::query_scalar(
        "SELECT CAST(sum(tries) AS BIGINT) FROM webhook_deliveries WHERE hook_id = $1 AND sent_at IS NOT NULL",
    )
    .bind(hook)
    .fetch_one(&app.db.read)
    .await
    .unwrap();
    assert_eq!(tries, 5);

    // Sent again by hand: a new delivery with the same body.
    let first: i64 =
        quire::db::query_scalar("SELECT min(id) FROM webhook_deliveries WHERE hook_id = $1")
            .bind(hook)
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    let res = app
        .post_form(
            &format!("/webhooks/{hook}/resend"),
            &[("delivery", &first.to_string())],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let got = receiver.wait_for(3).await;
    assert_eq!(
        got[2].body,
        got.iter()
            .find(|g| g.delivery == first.to_string())
            .unwrap()
            .body
    );
}

#[tokio::test]
async fn posts_to_this_machine_are_refused_unless_its_network_is_allowed() {
    let app = spawn_with(|c| c.hooks.webhook_retry_ms = 60_000).await;
    let receiver = Receiver::start(0).await;
    let named = receiver.url.replace("127.0.0.1", "localhost");
    let hook = add_hook(&app, &receiver.url, "", &["document.created"]).await;
    let by_name = add_hook(&app, &named, "", &["document.created"]).await;
    let team = team_space(&app).await;
    create_in(&app, "Inside job", "x", &team).await;

    let mut errors = Vec::new();
    for _ in 0..200 {
        errors = quire::db::query_scalar::<Option<String>>(
            "SELECT error FROM webhook_deliveries WHERE hook_id IN ($1, $2) AND tries > 0 ORDER BY hook_id",
        )
        .bind(hook)
        .bind(by_name)
        .fetch_all(&app.db.read)
        .await
        .unwrap();
        if errors.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(errors.len(), 2, "both tried");
    for e in errors.iter().flatten() {
        assert!(e.contains("refused") && e.contains("loopback"), "{e}");
    }
    assert_eq!(receiver.arrived(), 0, "nothing reached the receiver");
    let (_, page) = app.get_text(&format!("/webhooks/{hook}")).await;
    assert!(
        page.contains("QUIRE_WEBHOOK_ALLOW_NETWORKS"),
        "the page says why"
    );

    // An address that is not a web address is refused when the hook is made.
    let res = app
        .post_form(
            "/webhooks",
            &[
                ("url", "file:///etc/passwd"),
                ("event:document.created", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_space_managers_hook_hears_only_of_that_space() {
    let app = app_posting_to_loopback().await;
    let bob = Person::new(&app, "bob").await;
    let res = app
        .post_form("/spaces", &[("name", "Ops"), ("default_role", "")])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let ops: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Ops'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let ops = ops.to_string();
    let res = app
        .post_form(
            &format!("/spaces/{ops}"),
            &[("action", "member"), ("name", "bob"), ("role", "manage")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let receiver = Receiver::start(0).await;
    let team = team_space(&app).await;
    // bob manages Ops, not Team: a hook for Team or for every space is refused.
    for space in [team.as_str(), ""] {
        let res = bob
            .post(
                "/webhooks",
                &[
                    ("url", &receiver.url),
                    ("space", space),
                    ("event:document.created", "on"),
                ],
            )
            .await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "space {space:?}");
    }
    let res = bob
        .post(
            "/webhooks",
            &[
                ("url", &receiver.url),
                ("space", &ops),
                ("event:document.created", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    create_in(&app, "Team news", "x", &team).await;
    create_in(&app, "Ops runbook", "x", &ops).await;
    let got = receiver.wait_for(1).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(receiver.got().len(), 1, "{:#?}", receiver.got());
    assert!(got[0].body.contains("Ops runbook"));
}

#[tokio::test]
async fn the_api_description_lists_every_event_with_its_body() {
    let app = app_posting_to_loopback().await;
    let doc: serde_json::Value = reqwest::get(format!("{}/api/v1/openapi.json", app.address))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for event in ALL {
        let schema =
            &doc["webhooks"][event]["post"]["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(
            schema["$ref"], "#/components/schemas/WebhookEvent",
            "{event}"
        );
    }
    assert!(doc["components"]["schemas"]["WebhookEvent"]["properties"]["document"].is_object());
}

#[tokio::test]
async fn a_suggested_edit_is_told_when_opened_and_when_decided() {
    let app = app_posting_to_loopback().await;
    let bob = Person::new(&app, "bob").await;
    let receiver = Receiver::start(0).await;
    let events = [
        "suggestion.opened",
        "suggestion.accepted",
        "suggestion.declined",
    ];
    add_hook(&app, &receiver.url, "", &events).await;
    let team = team_space(&app).await;
    let id = create_in(&app, "Style guide", "Use tabs.", &team).await;
    let res = bob
        .post(
            &format!("/d/{id}/suggest"),
            &[
                ("base", "1"),
                ("title", "Style guide"),
                ("body", "Use spaces."),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let sid = location(&res)
        .split('/')
        .nth(4)
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    receiver.wait_for(1).await;
    let res = app
        .post_form(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let got = receiver.wait_for(2).await;
    let events: Vec<&str> = got.iter().map(|g| g.event.as_str()).collect();
    assert_eq!(events, ["suggestion.opened", "suggestion.accepted"]);
    let accepted: serde_json::Value = serde_json::from_str(&got[1].body).unwrap();
    assert_eq!(accepted["suggestion"]["author"], "bob");
    assert_eq!(accepted["suggestion"]["state"], "accepted");
    assert_eq!(accepted["actor"], "alice");
    assert!(
        !got[0].body.contains("Use spaces"),
        "never the text: {}",
        got[0].body
    );
}
