use reqwest::{StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, sign_in, spawn_app};

async fn token_for(app: &TestApp, client: &reqwest::Client, csrf: &str) -> String {
    crate::helpers::api_token(&app.address, client, csrf).await
}

fn api(app: &TestApp, method: reqwest::Method, path: &str, token: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .request(method, format!("{}/api/v1/documents{path}", app.address))
        .bearer_auth(token)
}

#[tokio::test]
async fn a_token_drives_the_whole_document_lifecycle() {
    let app = spawn_app().await;
    let token = token_for(&app, &app.client, &app.csrf).await;

    let res = api(&app, reqwest::Method::POST, "", &token)
        .json(&json!({"title": "From a script", "body": "hello"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let created: Value = res.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();

    let res = api(&app, reqwest::Method::GET, &format!("/{id}"), &token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()[header::ETAG], "\"1\"");
    assert_eq!(res.json::<Value>().await.unwrap()["body"], "hello");

    let put = |version: Option<&str>, body: &str| {
        let mut req = api(&app, reqwest::Method::PUT, &format!("/{id}"), &token)
            .json(&json!({"title": "From a script", "body": body}));
        if let Some(v) = version {
            req = req.header(header::IF_MATCH, v);
        }
        req.send()
    };
    assert_eq!(
        put(Some("\"1\""), "v2").await.unwrap().status(),
        StatusCode::OK
    );
    let stale = put(Some("\"1\""), "lost?").await.unwrap();
    assert_eq!(stale.status(), StatusCode::PRECONDITION_FAILED);
    assert_eq!(stale.json::<Value>().await.unwrap()["current_version"], 2);
    assert_eq!(
        put(None, "x").await.unwrap().status(),
        StatusCode::PRECONDITION_REQUIRED
    );
    let big = "x".repeat(app.config.max_doc_bytes + 1);
    assert_eq!(
        put(Some("\"2\""), &big).await.unwrap().status(),
        StatusCode::PAYLOAD_TOO_LARGE
    );

    let list: Value = api(&app, reqwest::Method::GET, "", &token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["documents"][0]["id"], id.as_str());

    let del = api(&app, reqwest::Method::DELETE, &format!("/{id}"), &token)
        .send()
        .await
        .unwrap();
    assert_eq!(del.status(), StatusCode::NO_CONTENT);
    let gone = api(&app, reqwest::Method::GET, &format!("/{id}"), &token)
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_api_needs_a_live_token_and_ignores_cookies() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(format!("{}/api/v1/documents", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::UNAUTHORIZED,
        "a session cookie is not enough"
    );
    let bad = api(
        &app,
        reqwest::Method::GET,
        "",
        &format!("qt_{}", "0".repeat(64)),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(bad.status(), StatusCode::UNAUTHORIZED);

    let token = token_for(&app, &app.client, &app.csrf).await;
    let (_, page) = app.get_text("/account").await;
    let id = page
        .split("/account/tokens/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap()
        .to_owned();
    app.post_form(&format!("/account/tokens/{id}/revoke"), &[])
        .await;
    let revoked = api(&app, reqwest::Method::GET, "", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn tokens_see_only_what_their_user_may() {
    let app = spawn_app().await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let private = app.create_document("Alice only", "x").await;
    let readable = app.create_document("Bob may read", "y").await;
    app.post_form(
        &format!("/d/{readable}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let token = token_for(&app, &bob, &csrf).await;

    let res = api(&app, reqwest::Method::GET, &format!("/{private}"), &token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = api(&app, reqwest::Method::PUT, &format!("/{readable}"), &token)
        .header(header::IF_MATCH, "\"1\"")
        .json(&json!({"title": "t", "body": "b"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let bad_json = api(&app, reqwest::Method::POST, "", &token)
        .header(header::CONTENT_TYPE, "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_json.status(), StatusCode::BAD_REQUEST);
    assert!(bad_json.json::<Value>().await.unwrap()["error"].is_string());
}

#[tokio::test]
async fn token_creation_use_and_revocation_are_audited() {
    let app = spawn_app().await;
    let events = |app: &TestApp| {
        let db = app.db.read.clone();
        async move {
            quire::db::query_scalar::<String>("SELECT event FROM audit_log ORDER BY id")
                .fetch_all(&db)
                .await
                .unwrap()
        }
    };

    let token = token_for(&app, &app.client, &app.csrf).await;
    assert!(events(&app).await.contains(&"token.created".to_owned()));
    let used = api(&app, reqwest::Method::GET, "", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(used.status(), StatusCode::OK);
    assert!(events(&app).await.contains(&"token.used".to_owned()));
    let (_, page) = app.get_text("/account").await;
    let id = page
        .split("/account/tokens/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap()
        .to_owned();
    app.post_form(&format!("/account/tokens/{id}/revoke"), &[])
        .await;
    assert!(events(&app).await.contains(&"token.revoked".to_owned()));

    let (_, html) = app.get_text("/admin/audit").await;
    for event in ["token.created", "token.used", "token.revoked"] {
        assert!(html.contains(event), "{event} on the audit page");
    }
}

#[tokio::test]
async fn json_bodies_are_limited_to_twice_the_cap_plus_64_kib() {
    let app = spawn_app().await;
    let token = token_for(&app, &app.client, &app.csrf).await;
    let limit = app.config.max_doc_bytes * 2 + 64 * 1024;
    // Each `\u0041` is six bytes of JSON for one byte of text, so the JSON can be
    // over its limit while the text is within the document cap.
    let post = |escaped_chars: usize| {
        let json = format!(
            r#"{{"title":"Escaped","body":"{}"}}"#,
            r"\u0041".repeat(escaped_chars)
        );
        api(&app, reqwest::Method::POST, "", &token)
            .header(header::CONTENT_TYPE, "application/json")
            .body(json)
            .send()
    };
    let under = (limit - 64) / 6;
    let over = limit / 6 + 1;
    assert!(
        over <= app.config.max_doc_bytes,
        "the text itself fits the cap"
    );

    assert_eq!(post(under).await.unwrap().status(), StatusCode::CREATED);
    assert_eq!(
        post(over).await.unwrap().status(),
        StatusCode::PAYLOAD_TOO_LARGE
    );
}
