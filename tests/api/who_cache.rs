//! Who an API token belongs to is known from memory while other people save
//! (their saves, the search indexing and the notices they make change nothing
//! it depends on); a revoked token, a disabled account or a signed-out
//! session is refused on its very next request all the same, and a session
//! known from memory shows a new notice in its header at once (and stays
//! known across a notifier's batch that told nobody anything).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Person, TestApp, api_token, metric, spawn_app, told};

/// Look-ups of who is asking answered from memory so far (`/metrics`).
async fn known_from_memory(app: &TestApp) -> u64 {
    metric(app, r#"quire_who_lookups_total{from="cache"}"#).await
}

async fn list(app: &TestApp, token: &str) -> StatusCode {
    reqwest::Client::new()
        .get(format!("{}/api/v1/documents", app.address))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

/// Uses `token` until a request is answered from memory: the first use is
/// written down (a commit, which empties what was kept), the next is read
/// and kept, the one after is known.
async fn known(app: &TestApp, token: &str) {
    let before = known_from_memory(app).await;
    for _ in 0..10 {
        assert_eq!(list(app, token).await, StatusCode::OK);
        if known_from_memory(app).await > before {
            return;
        }
    }
    panic!("the token was never known from memory");
}

/// alice's API token, its first use (written down) behind it.
async fn alice_token(app: &TestApp) -> String {
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    assert_eq!(list(app, &token).await, StatusCode::OK);
    token
}

/// alice makes a document through the API with `token` and saves it `times`
/// times, and the search indexes and the notices catch up with her.
async fn alice_saves(app: &TestApp, token: &str, times: i64) {
    let api = reqwest::Client::new();
    let url = format!("{}/api/v1/documents", app.address);
    let res = api
        .post(&url)
        .bearer_auth(token)
        .json(&json!({"title": "Busy", "body": "v1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for version in 1..=times {
        let res = api
            .put(format!("{url}/{id}"))
            .bearer_auth(token)
            .header("if-match", format!("\"{version}\""))
            .json(&json!({"title": "Busy", "body": format!("v{}", version + 1)}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
    told(app).await;
    quire::db::search::queue::catch_up(&app.db, quire::db::search::queue::BATCH, |_| {})
        .await
        .unwrap();
}

#[tokio::test]
async fn a_token_stays_known_while_others_save_and_is_refused_once_revoked() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let token = api_token(&app.address, &bob.client, &bob.csrf).await;
    let alices = alice_token(&app).await;
    known(&app, &token).await;

    alice_saves(&app, &alices, 3).await;
    let before = known_from_memory(&app).await;
    assert_eq!(list(&app, &token).await, StatusCode::OK);
    assert_eq!(
        known_from_memory(&app).await,
        before + 1,
        "saves, indexing and notices leave who holds a token known"
    );

    let account = bob.text("/account").await;
    let revoke = account
        .split("/account/tokens/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("the token's revoke form");
    let res = bob
        .post(&format!("/account/tokens/{revoke}/revoke"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(list(&app, &token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_known_token_of_a_disabled_account_is_refused_on_its_next_request() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let token = api_token(&app.address, &bob.client, &bob.csrf).await;
    known(&app, &token).await;
    let bob_id: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'bob'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();

    let res = app
        .post_form(&format!("/admin/users/{bob_id}"), &[("action", "disable")])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(list(&app, &token).await, StatusCode::UNAUTHORIZED);
}

/// `bob.unread()` until his session is answered from memory.
async fn session_known(app: &TestApp, bob: &Person) {
    let before = known_from_memory(app).await;
    for _ in 0..10 {
        bob.unread().await;
        if known_from_memory(app).await > before {
            return;
        }
    }
    panic!("the session was never known from memory");
}

#[tokio::test]
async fn a_session_stays_known_while_others_save_what_nobody_is_told_of() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let alices = alice_token(&app).await;
    session_known(&app, &bob).await;

    // alice's own document: the notifier's batch tells nobody of her saves.
    alice_saves(&app, &alices, 3).await;
    still_known(
        &app,
        &bob,
        "a notifier's batch that made no notice leaves who is signed in known",
    )
    .await;
}

/// bob's next request, told of nothing, is answered from memory.
async fn still_known(app: &TestApp, bob: &Person, why: &str) {
    let before = known_from_memory(app).await;
    assert_eq!(bob.unread().await, 0);
    assert_eq!(known_from_memory(app).await, before + 1, "{why}");
}

#[tokio::test]
async fn a_known_session_shows_a_new_notice_and_ends_when_signed_out() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Plans", "v1").await;
    crate::notices::share(&app, &id, "bob").await;
    told(&app).await;
    let before = known_from_memory(&app).await;
    for _ in 0..10 {
        assert_eq!(bob.unread().await, 1, "the share is told");
        if known_from_memory(&app).await > before {
            break;
        }
    }
    assert!(known_from_memory(&app).await > before, "never known");

    // alice's save is told to bob: the count in his header moves with it.
    let res = app.save(&id, "Plans", "v2", 1).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    told(&app).await;
    assert_eq!(bob.unread().await, 2);

    let res = bob.post("/logout", &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, _) = bob.page("/account").await;
    assert_eq!(status, StatusCode::SEE_OTHER, "sent to sign in");
}

#[tokio::test]
async fn a_session_stays_known_while_others_keep_drafts_and_trash_documents() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Scratch", "v1").await;
    session_known(&app, &bob).await;

    // alice types (her editor keeps drafts), throws the document away and
    // takes it back; she watches it alone, so nobody is told.
    let (status, _) = crate::drafts::autosave(&app, &id, "Scratch", "v1 and more", "1").await;
    assert_eq!(status, StatusCode::OK);
    let res = app.post_form(&format!("/d/{id}/draft/discard"), &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "discard");
    for step in ["delete", "restore"] {
        let res = app.post_form(&format!("/d/{id}/{step}"), &[]).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{step}");
    }
    told(&app).await;
    still_known(
        &app,
        &bob,
        "drafts and the trash leave who is signed in known",
    )
    .await;
}
