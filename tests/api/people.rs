//! Administrators manage people fully: rename, give and take administrator
//! rights, delete an account with its documents given to someone else.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, location, sign_in, spawn_app};

async fn user_id(app: &TestApp, name: &str) -> i64 {
    quire::db::query_scalar("SELECT id FROM users WHERE username = $1")
        .bind(name)
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

async fn with_bob(app: &TestApp) -> i64 {
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    user_id(app, "bob").await
}

async fn act(app: &TestApp, id: i64, fields: &[(&str, &str)]) -> (StatusCode, String) {
    let res = app.post_form(&format!("/admin/users/{id}"), fields).await;
    let status = res.status();
    (status, res.text().await.unwrap())
}

#[tokio::test]
async fn an_account_is_renamed_and_signs_in_under_its_new_name() {
    let app = spawn_app().await;
    let bob = with_bob(&app).await;
    let (status, page) = app.get_text(&format!("/admin/users/{bob}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Delete the account"), "{page}");

    let (status, page) = act(&app, bob, &[("action", "rename"), ("username", "alice")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("taken"), "{page}");
    let (status, _) = act(&app, bob, &[("action", "rename"), ("username", "robert")]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    sign_in(&app.address, "robert", PASSWORD).await;
    let (_, audit) = app.get_text("/admin/audit").await;
    assert!(audit.contains("user.renamed"), "{audit}");
}

#[tokio::test]
async fn administrator_rights_are_given_and_taken_but_never_your_own() {
    let app = spawn_app().await;
    let bob = with_bob(&app).await;
    let (bob_client, _) = sign_in(&app.address, "bob", PASSWORD).await;
    let admin_page = |client: reqwest::Client| {
        let url = format!("{}/admin/users", app.address);
        async move { client.get(url).send().await.unwrap().status() }
    };
    assert_eq!(admin_page(bob_client.clone()).await, StatusCode::FORBIDDEN);
    act(&app, bob, &[("action", "promote")]).await;
    assert_eq!(admin_page(bob_client.clone()).await, StatusCode::OK);
    act(&app, bob, &[("action", "demote")]).await;
    assert_eq!(admin_page(bob_client).await, StatusCode::FORBIDDEN);

    let alice = user_id(&app, "alice").await;
    let (status, page) = act(&app, alice, &[("action", "demote")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("cannot take your own"), "{page}");
    assert_eq!(app.get("/admin/users").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_deleted_account_leaves_its_documents_with_the_chosen_owner() {
    let app = spawn_app().await;
    let bob = with_bob(&app).await;
    let alice = user_id(&app, "alice").await;
    let (bob_client, bob_csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let post = |path: &str, fields: Vec<(&'static str, String)>| {
        let mut fields = fields;
        fields.push(("csrf", bob_csrf.clone()));
        bob_client
            .post(format!("{}{path}", app.address))
            .form(&fields)
            .send()
    };
    let made = post(
        "/docs",
        vec![
            ("title", "Bob's plan".into()),
            ("body", "steps".into()),
            ("space", "personal".into()),
        ],
    )
    .await
    .unwrap();
    let kept = location(&made).split('?').next().unwrap().to_owned();
    let trashed = post(
        "/docs",
        vec![("title", "Bob's old note".into()), ("body", "x".into())],
    )
    .await
    .unwrap();
    let trashed = location(&trashed).split('?').next().unwrap().to_owned();
    post(&format!("{trashed}/delete"), vec![]).await.unwrap();

    let (status, _) = act(
        &app,
        bob,
        &[("action", "delete"), ("heir", &alice.to_string())],
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not without the box ticked"
    );
    let (status, _) = act(
        &app,
        alice,
        &[
            ("action", "delete"),
            ("heir", &bob.to_string()),
            ("confirm", "yes"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "not yourself");
    let (status, _) = act(
        &app,
        bob,
        &[
            ("action", "delete"),
            ("heir", &alice.to_string()),
            ("confirm", "yes"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let (status, page) = app.get_text(&kept).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("only you can see it"),
        "alice owns it now: {page}"
    );
    let (_, trash) = app.get_text("/trash").await;
    assert!(
        trash.contains("Bob&#39;s old note") || trash.contains("Bob's old note"),
        "{trash}"
    );
    let gone = bob_client
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::SEE_OTHER, "bob's session ended");
    let (_, audit) = app.get_text("/admin/audit").await;
    assert!(audit.contains("2 documents now belong to alice"), "{audit}");
}
