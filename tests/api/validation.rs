use reqwest::StatusCode;

use crate::helpers::{location, spawn_app, spawn_with, textareas, unescape};

#[tokio::test]
async fn oversized_body_returns_413_with_the_text_kept_and_the_limit_named() {
    let app = spawn_app().await;
    let cap = app.config.max_doc_bytes;
    let body = "é".repeat(cap / 2 + 1); // Over the configured cap by one or two bytes.

    let res = app
        .post_form("/docs", &[("title", "Big"), ("body", &body)])
        .await;

    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let html = res.text().await.unwrap();
    let size = format!("{} bytes", grouped(body.len()));
    assert!(html.contains(&size), "names the actual size, {size}");
    let limit = format!("{} bytes", grouped(cap));
    assert!(html.contains(&limit), "names the limit, {limit}");
    assert_eq!(textareas(&html), vec![body]);
    let (_, home) = app.get_text("/").await;
    assert!(!home.contains("Big"));
}

#[tokio::test]
async fn a_body_exactly_at_the_cap_is_accepted() {
    let app = spawn_with(|c| c.max_doc_bytes = 1000).await;
    let id = app.create_document("Full", &"a".repeat(1000)).await;
    let res = app.save(&id, "Full", &"b".repeat(1001), 1).await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        textareas(&res.text().await.unwrap()),
        vec!["b".repeat(1001)]
    );
}

#[tokio::test]
async fn a_huge_upload_is_cut_off_with_a_clear_message() {
    let app = spawn_with(|c| c.max_doc_bytes = 1000).await;
    let mut body = b"title=x&body=".to_vec();
    body.extend(std::iter::repeat_n(b'a', 5_000_000));

    let res = app.post_raw("/docs", body).await;

    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let html = res.text().await.unwrap();
    assert!(html.contains("did not read it"), "{html}");
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn empty_title_is_refused_with_the_text_kept() {
    let app = spawn_app().await;
    let res = app
        .post_form("/docs", &[("title", "   "), ("body", "precious words")])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = res.text().await.unwrap();
    assert!(html.contains("The title is empty"));
    assert_eq!(textareas(&html), vec!["precious words".to_string()]);
}

#[tokio::test]
async fn missing_fields_and_bad_versions_are_400_with_a_reason() {
    let app = spawn_app().await;
    let id = app.create_document("T", "b").await;
    type Case<'a> = (String, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        ("/docs".into(), vec![("title", "no body")], "\"body\""),
        ("/docs".into(), vec![("body", "no title")], "\"title\""),
        (
            format!("/d/{id}"),
            vec![("title", "T"), ("body", "b")],
            "\"version\"",
        ),
        (
            format!("/d/{id}"),
            vec![("title", "T"), ("body", "b"), ("version", "two")],
            "not a version",
        ),
    ];
    for (path, fields, reason) in cases {
        let res = app.post_form(&path, &fields).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{path} {fields:?}");
        let page = unescape(&res.text().await.unwrap());
        assert!(page.contains(reason), "{reason}");
    }
}

#[tokio::test]
async fn invalid_utf8_is_refused_not_mangled() {
    let app = spawn_app().await;
    let res = app.post_raw("/docs", b"title=x&body=%C3%28".to_vec()).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(res.text().await.unwrap().contains("not valid UTF-8"));
    let (_, home) = app.get_text("/").await;
    assert!(home.contains("No documents yet"));
}

#[tokio::test]
async fn unknown_and_malformed_ids_are_404_pages() {
    let app = spawn_app().await;
    for path in [
        "/d/aaaaaaaaaaaaaaaaaaaaaaaaaa",
        "/d/not-an-id",
        "/d/%00",
        "/d/aaaaaaaaaaaaaaaaaaaaaaaaaa/edit",
        "/nowhere",
    ] {
        let (status, html) = app.get_text(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(html.contains("Not found"), "{path}");
    }
    let res = app
        .save("aaaaaaaaaaaaaaaaaaaaaaaaaa", "t", "my text", 1)
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.text().await.unwrap().contains("my text"));
    let res = app.post_form("/d/zzz/delete", &[]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_malformed_page_number_is_a_400_page() {
    let app = spawn_app().await;
    let (status, html) = app.get_text("/?page=abc").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("malformed query"));
}

/// NUL characters are not text to a reader, and PostgreSQL refuses them in text
/// columns: anywhere a user types, they become U+FFFD and the rest is kept.
#[tokio::test]
async fn nul_characters_are_replaced_not_refused_on_every_backend() {
    let app = spawn_app().await;
    let res = app
        .post_raw("/docs", b"title=a%00b&body=one%00two".to_vec())
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, html) = app.get_text(&location(&res)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("a\u{FFFD}b") && html.contains("one\u{FFFD}two"),
        "{html}"
    );

    // A sign-in with one is just a wrong password (and is audited), not a 500.
    let (client, csrf) = crate::helpers::anonymous(&app.address).await;
    let res = client
        .post(format!("{}/login", app.address))
        .form(&[
            ("username", "al\0ice"),
            ("password", "x\0y"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    // The JSON API takes the same text the same way.
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let res = reqwest::Client::new()
        .post(format!("{}/api/v1/documents", app.address))
        .bearer_auth(&token)
        .json(&serde_json::json!({"title": "t\u{0}", "body": "b\u{0}"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let doc: serde_json::Value = res.json().await.unwrap();
    assert_eq!(doc["body"], "b\u{FFFD}");
}

/// `262144` as `262,144`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
