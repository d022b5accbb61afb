//! The memory uploads may hold at once (`QUIRE_UPLOAD_MEMORY_BYTES`): an upload
//! that finds the budget full waits briefly, then is refused with 503, a
//! `Retry-After` and the reason (the editor's text handed back), while the one
//! holding the room goes through; once it is stored, the next upload is taken.

use std::time::{Duration, Instant};

use reqwest::{StatusCode, header};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::attachments::multipart;
use crate::helpers::{TestApp, api_token, spawn_with, textareas};

/// Room for one of the uploads below, not two.
const BUDGET: usize = 96 * 1024;
const FILE: usize = 64 * 1024;

/// An API upload whose body has not fully arrived: it holds its room in the
/// budget until `finish` sends the rest.
struct Held {
    conn: TcpStream,
    rest: Vec<u8>,
}

impl Held {
    async fn start(app: &TestApp, token: &str, id: &str) -> Self {
        let body = multipart(&[], Some(("first.bin", &[1u8; FILE])));
        let head = format!(
            "POST /api/v1/documents/{id}/attachments HTTP/1.1\r\nHost: x\r\n\
             Authorization: Bearer {token}\r\n\
             Content-Type: multipart/form-data; boundary=XB\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let mut conn = TcpStream::connect(app.address.trim_start_matches("http://"))
            .await
            .unwrap();
        conn.write_all(head.as_bytes()).await.unwrap();
        let (sent, rest) = body.split_at(body.len() / 2);
        conn.write_all(sent).await.unwrap();
        // Time for the server to read the head and take the room.
        tokio::time::sleep(Duration::from_millis(500)).await;
        Self {
            conn,
            rest: rest.to_vec(),
        }
    }

    /// Sends the rest of the body; the answer's status line.
    async fn finish(mut self) -> String {
        self.conn.write_all(&self.rest).await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(20), self.conn.read_to_end(&mut answer))
            .await
            .expect("the held upload is answered")
            .unwrap();
        let text = String::from_utf8_lossy(&answer);
        text.lines().next().unwrap_or_default().to_owned()
    }
}

async fn api_upload(app: &TestApp, token: &str, id: &str, name: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/api/v1/documents/{id}/attachments", app.address))
        .bearer_auth(token)
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
        .body(multipart(&[], Some((name, &[2u8; FILE]))))
        .send()
        .await
        .unwrap()
}

async fn names(app: &TestApp, token: &str, id: &str) -> Vec<String> {
    let list: serde_json::Value = app
        .client
        .get(format!("{}/api/v1/documents/{id}/attachments", app.address))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut names: Vec<String> = list["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn an_upload_beyond_the_memory_budget_waits_then_gets_503_and_a_later_one_succeeds() {
    let app = spawn_with(|c| c.upload_memory_bytes = BUDGET).await;
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let id = app.create_document("Files", "text").await;
    let held = Held::start(&app, &token, &id).await;

    let asked = Instant::now();
    let res = api_upload(&app, &token, &id, "second.bin").await;
    assert_eq!(
        res.status(),
        StatusCode::SERVICE_UNAVAILABLE,
        "a second upload is not held in memory beside the first"
    );
    assert!(
        asked.elapsed() >= Duration::from_secs(4),
        "it waited for room first: {:?}",
        asked.elapsed()
    );
    let retry = res.headers().get(header::RETRY_AFTER).cloned();
    assert_eq!(retry.as_ref().and_then(|v| v.to_str().ok()), Some("5"));
    let answer: serde_json::Value = res.json().await.unwrap();
    let error = answer["error"].as_str().unwrap_or_default();
    assert!(error.contains("not attached"), "{answer}");
    assert!(error.contains("again"), "{answer}");

    assert_eq!(held.finish().await, "HTTP/1.1 201 Created");
    let res = api_upload(&app, &token, &id, "third.bin").await;
    assert_eq!(res.status(), StatusCode::CREATED, "the room was given back");
    assert_eq!(names(&app, &token, &id).await, ["first.bin", "third.bin"]);
}

#[tokio::test]
async fn an_editor_upload_refused_for_memory_comes_back_with_the_text() {
    let app = spawn_with(|c| c.upload_memory_bytes = BUDGET).await;
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let id = app.create_document("Notes", "My own words").await;
    let held = Held::start(&app, &token, &id).await;

    let body = multipart(
        &[
            ("csrf", &app.csrf),
            ("doc", &id),
            ("title", "Notes"),
            ("body", "My own words, changed"),
            ("version", "1"),
        ],
        Some(("photo.png", &[3u8; FILE])),
    );
    let res = app
        .client
        .post(format!("{}/d/{id}/attachments", app.address))
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.headers().contains_key(header::RETRY_AFTER));
    let page = res.text().await.unwrap();
    assert!(page.contains("was not attached"), "{page}");
    assert_eq!(textareas(&page), vec!["My own words, changed"]);

    assert_eq!(held.finish().await, "HTTP/1.1 201 Created");
    assert_eq!(names(&app, &token, &id).await, ["first.bin"]);
}
