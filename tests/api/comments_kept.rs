//! Comments kept and reached from outside: export and import carry them, and
//! the JSON API reads and writes them with the pages' rules.

use reqwest::StatusCode;

use crate::comments::{alice, comment};
use crate::helpers::{Person, api_token, spawn_app};
use crate::notices::share;

#[tokio::test]
async fn an_export_carries_the_discussion_and_an_import_puts_it_back() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let me = alice(&app).await;
    let id = app.create_document("Design doc", "the design").await;
    share(&app, &id, "bob").await;
    let first = comment(
        &me,
        &id,
        &[("body", "Why *not* SQLite?"), ("quote", "the design")],
    )
    .await;
    comment(
        &bob,
        &id,
        &[("body", "It is SQLite."), ("parent", &first.to_string())],
    )
    .await;
    me.post(
        &format!("/d/{id}/comments/{first}/resolve"),
        &[("resolved", "1")],
    )
    .await;

    let res = app.get("/account/export").await;
    assert_eq!(res.status(), StatusCode::OK);
    let zip = res.bytes().await.unwrap().to_vec();

    let other = spawn_app().await;
    Person::new(&other, "bob").await;
    let (status, html) =
        crate::transfer_upload::upload(&other.client, &other.address, Some(&other.csrf), &zip)
            .await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Put back 2 comments."), "{html}");
    let page = other.get_text(&format!("/d/{id}")).await.1;
    assert!(page.contains("Why <em>not</em> SQLite?"), "{page}");
    assert!(page.contains("It is SQLite.") && page.contains("Resolved by alice"));
    assert!(page.contains(r#"<blockquote class="comment-quote">the design</blockquote>"#));
    let reply_author: Option<String> = quire::db::query_scalar(
        "SELECT u.username FROM comments c JOIN users u ON u.id = c.author_id WHERE c.parent_id IS NOT NULL",
    )
    .fetch_optional(&other.db.read)
    .await
    .unwrap();
    assert_eq!(
        reply_author.as_deref(),
        Some("bob"),
        "the reply is bob's again"
    );
}

#[tokio::test]
async fn the_json_api_reads_and_writes_comments_with_the_pages_rules() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = app.create_document("API notes", "text").await;
    share(&app, &id, "bob").await;
    let token = api_token(&app.address, &bob.client, &bob.csrf).await;
    let carols = api_token(&app.address, &carol.client, &carol.csrf).await;
    let http = reqwest::Client::new();
    let url = format!("{}/api/v1/documents/{id}/comments", app.address);

    let res = http
        .post(&url)
        .bearer_auth(&token)
        .json(&serde_json::json!({"body": "From a script", "quote": "text"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let made: serde_json::Value = res.json().await.unwrap();
    assert_eq!(made["author"], "bob");
    assert_eq!(made["quote"], "text");
    let cid = made["id"].as_i64().unwrap();
    // JSON may carry a NUL, which PostgreSQL refuses in text: it is kept as
    // U+FFFD, in the quote as in the body, not a server error.
    let res = http
        .post(&url)
        .bearer_auth(&token)
        .json(&serde_json::json!({"body": "nul\u{0}body", "quote": "nul\u{0}quote"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let odd: serde_json::Value = res.json().await.unwrap();
    assert_eq!(odd["quote"], "nul\u{FFFD}quote");
    assert_eq!(odd["body"], "nul\u{FFFD}body");
    // A reply to a reply joins the thread.
    let reply = |parent: i64| {
        http.post(&url)
            .bearer_auth(&token)
            .json(&serde_json::json!({"body": "and more", "parent": parent}))
            .send()
    };
    let r1: serde_json::Value = reply(cid).await.unwrap().json().await.unwrap();
    let r2: serde_json::Value = reply(r1["id"].as_i64().unwrap())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r2["parent"], cid);

    let list: serde_json::Value = http
        .get(&url)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    // The first thread (with its two replies) and the one with the NULs.
    assert_eq!(list["comments"].as_array().unwrap().len(), 4);
    assert_eq!(list["may_comment"], true);
    let res = http.get(&url).bearer_auth(&carols).send().await.unwrap();
    assert_eq!(
        res.status(),
        StatusCode::NOT_FOUND,
        "carol may not read the document"
    );
    let res = http
        .post(&url)
        .bearer_auth(&carols)
        .json(&serde_json::json!({"body": "sneaking in"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let res = http
        .patch(format!("{url}/{cid}"))
        .bearer_auth(&token)
        .json(&serde_json::json!({"body": "From a script, changed", "resolved": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let changed: serde_json::Value = res.json().await.unwrap();
    assert_eq!(changed["body"], "From a script, changed");
    assert_eq!(changed["resolved_by"], "bob", "its author may resolve it");
    let res = http
        .post(&url)
        .bearer_auth(&token)
        .json(&serde_json::json!({"body": ""}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = http
        .delete(format!("{url}/{cid}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let list: serde_json::Value = http
        .get(&url)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let first = &list["comments"][0];
    assert_eq!(first["deleted"], true, "it had replies: its place stays");
    assert_eq!(first["body"], "");
}
