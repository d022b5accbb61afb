//! A document page seen before is answered from memory; every change to what its
//! viewer may see counts from the next request: a save by someone else, a
//! revoked share, a disabled account, a signed-out session; and on SQLite a
//! change made by another process counts within a second.

use std::time::{Duration, Instant};

use reqwest::{StatusCode, header};

use crate::helpers::{
    PASSWORD, TestApp, cookies_of, location, metric, sign_in, signed_in_with_jar, spawn_app,
};

/// bob, signed in beside the app's admin alice; his user id.
async fn bob(app: &TestApp) -> (reqwest::Client, String, i64) {
    let bob = quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (client, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    (client, csrf, bob.id)
}

async fn view(client: &reqwest::Client, app: &TestApp, id: &str) -> (StatusCode, String) {
    let res = client
        .get(format!("{}/d/{id}", app.address))
        .send()
        .await
        .unwrap();
    (res.status(), res.text().await.unwrap())
}

/// Page views answered from the cache so far, as `/metrics` counts them.
async fn from_cache(app: &TestApp) -> u64 {
    metric(app, r#"quire_page_cache_views_total{from="cache"}"#).await
}

/// Views the page until a view comes from the cache: the second does, unless
/// a commit of quire's own in between (the search indexer taking in a save)
/// emptied the cache; then the next one does.
async fn seen_twice(client: &reqwest::Client, app: &TestApp, id: &str, text: &str) {
    let before = from_cache(app).await;
    let mut cached = false;
    for _ in 0..10 {
        let (status, page) = view(client, app, id).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains(text), "{page}");
        if from_cache(app).await > before {
            cached = true;
            break;
        }
    }
    assert!(cached, "the second view was cached");
}

/// alice's document `text`, shared with bob, whose next view of it is cached.
async fn seen_by_bob(text: &str) -> (TestApp, reqwest::Client, i64, String) {
    let app = spawn_app().await;
    let (bob, _, bob_id) = bob(&app).await;
    let id = app.create_document("Plans", text).await;
    share_with_bob(&app, &id).await;
    seen_twice(&bob, &app, &id, text).await;
    (app, bob, bob_id, id)
}

async fn share_with_bob(app: &TestApp, id: &str) {
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "share"), ("username", "bob"), ("role", "read")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_page_seen_before_shows_a_save_by_someone_else_on_the_next_view() {
    let (app, bob, _, id) = seen_by_bob("first words").await;

    let res = app.save(&id, "Plans", "second words", 1).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, page) = view(&bob, &app, &id).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("second words"), "{page}");
    assert!(!page.contains("first words"), "{page}");
}

#[tokio::test]
async fn a_revoked_share_takes_a_page_seen_before_away_on_the_next_view() {
    let (app, bob, bob_id, id) = seen_by_bob("only for now").await;

    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "unshare"), ("user_id", &bob_id.to_string())],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, page) = view(&bob, &app, &id).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("only for now"), "{page}");
}

#[tokio::test]
async fn a_disabled_account_cannot_view_a_page_it_saw_before() {
    let (app, bob, bob_id, id) = seen_by_bob("read by bob").await;

    let res = app
        .post_form(&format!("/admin/users/{bob_id}"), &[("action", "disable")])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = bob
        .get(format!("{}/d/{id}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "sent to sign in");
    assert!(location(&res).starts_with("/login"));
}

#[tokio::test]
async fn a_signed_out_session_cannot_view_a_page_it_saw_before() {
    let app = spawn_app().await;
    let id = app.create_document("Plans", "for my eyes").await;
    let (client, jar, csrf) = signed_in_with_jar(&app.address, "alice").await;
    seen_twice(&client, &app, &id, "for my eyes").await;
    let cookies = cookies_of(&jar, &app.address);

    let res = client
        .post(format!("{}/logout", app.address))
        .form(&[("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    // The old cookie, sent again as someone who kept it would.
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{}/d/{id}", app.address))
        .header(header::COOKIE, cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "sent to sign in");
    assert!(location(&res).starts_with("/login"));
}

#[tokio::test]
async fn a_change_by_another_process_counts_within_a_second() {
    let (app, bob, bob_id, id) = seen_by_bob("read by bob").await;

    // Another process on the same database (the command line, or on
    // PostgreSQL another instance): a connection and change counter of its own.
    let other = quire::db::Db::open(&app.config).await.unwrap();
    let alice = quire::accounts::authenticate(&other, "alice", PASSWORD, "127.0.0.1")
        .await
        .expect("alice");
    quire::accounts::manage::set_disabled(&other, &alice, bob_id, true)
        .await
        .unwrap();
    other.close().await;

    let started = Instant::now();
    loop {
        let res = bob
            .get(format!("{}/d/{id}", app.address))
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::SEE_OTHER {
            assert!(location(&res).starts_with("/login"));
            break;
        }
        assert_eq!(res.status(), StatusCode::OK);
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "a disabled account still saw the page after 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every CSRF token a page carries (its forms and htmx's header).
fn tokens_of(page: &str) -> Vec<String> {
    let fields = page
        .split(r#"name="csrf" value=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next());
    let header = page
        .split(r#""X-CSRF-Token": ""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next());
    fields.chain(header).map(str::to_owned).collect()
}

#[tokio::test]
async fn two_sessions_of_one_user_share_a_cached_page_but_not_a_token() {
    let app = spawn_app().await;
    let id = app.create_document("Plans", "seen from two browsers").await;
    let (first, first_csrf) = sign_in(&app.address, "alice", PASSWORD).await;
    let (second, second_csrf) = sign_in(&app.address, "alice", PASSWORD).await;
    assert_ne!(first_csrf, second_csrf);
    // The first browser's view keeps the page; the second's is answered from
    // it (tried again if a commit of quire's own emptied the cache between).
    let mut cached = None;
    for _ in 0..10 {
        view(&first, &app, &id).await;
        let before = from_cache(&app).await;
        let (status, page) = view(&second, &app, &id).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("seen from two browsers"), "{page}");
        if from_cache(&app).await > before {
            cached = Some(page);
            break;
        }
    }
    let page = cached.expect("a view from the cache");
    let tokens = tokens_of(&page);
    assert!(
        tokens.len() >= 3,
        "the layout's and the delete form's: {tokens:?}"
    );
    assert!(tokens.iter().all(|t| *t == second_csrf), "{tokens:?}");
    let (_, page) = view(&first, &app, &id).await;
    assert!(tokens_of(&page).iter().all(|t| *t == first_csrf));

    // The second browser's delete form, as it came from the cache, works.
    let res = second
        .post(format!("{}/d/{id}/delete", app.address))
        .form(&[(
            "csrf",
            csrf_of_delete_form(&page_of(&second, &app, &id).await),
        )])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, _) = view(&first, &app, &id).await;
    assert_eq!(status, StatusCode::GONE, "in the trash");
}

async fn page_of(client: &reqwest::Client, app: &TestApp, id: &str) -> String {
    view(client, app, id).await.1
}

/// The token in the page's form that moves the document to the trash.
fn csrf_of_delete_form(page: &str) -> String {
    let form = page
        .split(r#"/delete" class="inline""#)
        .nth(1)
        .expect("a delete form");
    form.split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("its token")
        .to_owned()
}
