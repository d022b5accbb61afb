//! The size cap applies to the text as quire stores it: line ends as LF, NULs
//! as U+FFFD. A text that fits the editor's counter is not refused for the
//! browser's CRLF, and NULs cannot slip a text past the cap into a 500.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{location, spawn_with};

#[tokio::test]
async fn a_plain_form_post_with_crlf_line_ends_is_measured_as_stored() {
    let app = spawn_with(|c| c.max_doc_bytes = 1000).await;
    // 1,200 bytes as the browser sends it, 900 as stored.
    let body = "ab\r\n".repeat(300);
    let res = app
        .post_form("/docs", &[("title", "Lines"), ("body", &body)])
        .await;
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "fits once line ends are LF"
    );
    let place = location(&res);
    let id = place.trim_start_matches("/d/").split('?').next().unwrap();
    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(page.contains("ab\nab\n"), "stored with LF line ends");
    assert!(!page.contains("ab\r\n"), "no CR kept");
}

#[tokio::test]
async fn nuls_that_grow_an_api_body_past_the_cap_are_a_413_not_a_500() {
    let app = spawn_with(|c| c.max_doc_bytes = 262_144).await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let body = format!("{}{}", "a".repeat(200_000), "\0".repeat(60_000));
    let res = reqwest::Client::new()
        .post(format!("{}/api/v1/documents", app.address))
        .bearer_auth(&token)
        .json(&json!({"title": "NULs", "body": body}))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{text}");
    assert!(
        text.contains("380,000 bytes"),
        "says the stored size: {text}"
    );
}
