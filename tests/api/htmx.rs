use reqwest::StatusCode;

use crate::helpers::spawn_app;

#[tokio::test]
async fn htmx_requests_get_the_partial_and_plain_requests_the_page() {
    let app = spawn_app().await;
    let id = app.create_document("Partial", "body").await;

    let full = app.get(&format!("/d/{id}")).await;
    assert_eq!(full.headers()["vary"], "HX-Request, HX-Target");
    let full = full.text().await.unwrap();
    assert!(full.starts_with("<!doctype html>"));

    let part = app.get_htmx(&format!("/d/{id}")).await;
    assert_eq!(part.headers()["vary"], "HX-Request, HX-Target");
    let part = part.text().await.unwrap();
    assert!(part.starts_with("<title>Partial · quire</title>"), "{part}");
    assert!(!part.contains("<html"));
    assert!(part.contains("<article"));
}

#[tokio::test]
async fn history_restore_and_boosted_body_swaps_get_the_full_page() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(format!("{}/", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "main")
        .header("HX-History-Restore-Request", "true")
        .send()
        .await
        .unwrap();
    assert!(res.text().await.unwrap().starts_with("<!doctype html>"));

    // A boosted link swaps the whole body: htmx sends no HX-Target for it.
    let res = app
        .client
        .get(format!("{}/", app.address))
        .header("HX-Request", "true")
        .header("HX-Boosted", "true")
        .send()
        .await
        .unwrap();
    assert!(res.text().await.unwrap().starts_with("<!doctype html>"));
}

#[tokio::test]
async fn htmx_save_loads_the_page_in_place_and_announces_it() {
    let app = spawn_app().await;
    let id = app.create_document("Inline", "v1").await;

    let res = app
        .post_htmx(
            &format!("/d/{id}"),
            &[("title", "Inline"), ("body", "v2"), ("version", "1")],
        )
        .await;

    assert_eq!(res.status(), StatusCode::OK);
    let location = res.headers()["hx-location"].to_str().unwrap().to_owned();
    assert_eq!(
        location,
        format!(r##"{{"path":"/d/{id}","target":"#main"}}"##)
    );
    assert!(
        res.headers()["hx-trigger"]
            .to_str()
            .unwrap()
            .contains("Saved.")
    );
}

#[tokio::test]
async fn htmx_conflict_swaps_in_the_conflict_view() {
    let app = spawn_app().await;
    let id = app.create_document("C", "v1").await;
    app.save(&id, "C", "v2", 1).await;

    let res = app
        .post_htmx(
            &format!("/d/{id}"),
            &[("title", "C"), ("body", "my v2"), ("version", "1")],
        )
        .await;

    assert_eq!(res.status(), StatusCode::CONFLICT);
    let part = res.text().await.unwrap();
    assert!(part.starts_with("<title>Edit conflict · quire</title>"));
    let areas = crate::helpers::textareas(&part);
    assert!(
        areas.contains(&"my v2".to_owned()) && areas.contains(&"v2".to_owned()),
        "mine and theirs, each on its own: {areas:?}"
    );
}

#[tokio::test]
async fn pages_carry_security_headers() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    let h = res.headers();
    assert!(
        h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("script-src 'self'")
    );
    assert!(
        h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["referrer-policy"], "same-origin");
}

#[tokio::test]
async fn static_files_are_served_at_hashed_urls_with_long_caching() {
    let app = spawn_app().await;
    let (_, page) = app.get_text("/").await;
    let js = page
        .split('"')
        .find(|s| s.starts_with("/static/") && s.ends_with("/htmx.min.js"))
        .expect("the page links htmx")
        .to_owned();

    let res = app.get(&js).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(res.text().await.unwrap().contains("htmx"));

    let stale = app.get("/static/000000000000/htmx.min.js").await;
    assert_eq!(stale.headers()["cache-control"], "no-cache");
    for bad in ["/static/x/..%2F..%2FCargo.toml", "/static/x/secret.txt"] {
        assert_eq!(app.get(bad).await.status(), StatusCode::NOT_FOUND, "{bad}");
    }
}

#[tokio::test]
async fn every_page_links_an_icon_and_favicon_ico_answers_without_a_session() {
    let app = spawn_app().await;
    let (_, page) = app.get_text("/").await;
    let icon = page
        .split("<link rel=\"icon\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page links an icon")
        .to_owned();
    let res = app.get(&icon).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    // Asked for by browsers and readers without cookies, before any sign-in.
    let res = reqwest::get(format!("{}/favicon.ico", app.address))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    assert!(res.text().await.unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn health_and_readiness_probes_answer() {
    let app = spawn_app().await;
    assert_eq!(
        app.get_text("/healthz").await,
        (StatusCode::OK, "ok".into())
    );
    assert_eq!(
        app.get_text("/readyz").await,
        (StatusCode::OK, "ready".into())
    );
}

/// Sends a request head as written (no client quirks) and returns the whole
/// answer; a write cut short by the server's answer is not an error here.
async fn raw_get(address: &str, headers: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address.trim_start_matches("http://"))
        .await
        .unwrap();
    let head =
        format!("GET /healthz HTTP/1.1\r\nHost: quire\r\n{headers}Connection: close\r\n\r\n");
    let _ = stream.write_all(head.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or_default()
}

#[tokio::test]
async fn a_request_head_over_128_kib_gets_431() {
    let app = spawn_app().await;
    let under = format!("X-Padding: {}\r\n", "a".repeat(127 * 1024));
    let over = format!("X-Padding: {}\r\n", "a".repeat(129 * 1024));

    assert_eq!(
        status_line(&raw_get(&app.address, &under).await),
        "HTTP/1.1 200 OK"
    );
    assert_eq!(
        status_line(&raw_get(&app.address, &over).await),
        "HTTP/1.1 431 Request Header Fields Too Large"
    );
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_request_head_still_arriving_after_10_seconds_gets_408_and_the_connection_closes() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let mut stream = tokio::net::TcpStream::connect(app.address.trim_start_matches("http://"))
        .await
        .unwrap();
    // The head's blank line never comes.
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: quire\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(30),
        stream.read_to_end(&mut answer),
    )
    .await
    .expect("the server closes the connection")
    .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(
        status_line(&answer),
        "HTTP/1.1 408 Request Timeout",
        "{answer}"
    );
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(9),
        "closed after {:?}",
        started.elapsed()
    );
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn more_than_96_headers_get_431() {
    let app = spawn_app().await;
    // Host and Connection count too.
    let headers = |n: usize| (0..n).map(|i| format!("X-H{i}: v\r\n")).collect::<String>();

    assert_eq!(
        status_line(&raw_get(&app.address, &headers(94)).await),
        "HTTP/1.1 200 OK"
    );
    assert_eq!(
        status_line(&raw_get(&app.address, &headers(95)).await),
        "HTTP/1.1 431 Request Header Fields Too Large"
    );
}

#[tokio::test]
async fn the_healthcheck_command_sees_a_running_server() {
    let app = spawn_app().await;
    let bind = app.address.trim_start_matches("http://").to_owned();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
            .arg("healthcheck")
            .env("QUIRE_BIND", bind)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn a_graceful_stop_lets_a_request_in_flight_finish() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    // A token's first use is written down; done here, the request in flight
    // below is the document's creation alone.
    let listed = app
        .client
        .get(format!("{}/api/v1/documents", app.address))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), StatusCode::OK);
    let host = app.address.trim_start_matches("http://").to_owned();
    let body = r#"{"title":"In flight","body":"sent across the stop"}"#;
    let mut stream = tokio::net::TcpStream::connect(&host).await.unwrap();
    let head = format!(
        "POST /api/v1/documents HTTP/1.1\r\nHost: quire\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // "100 Continue": the server has read the head and waits for the body.
    let mut continued = Vec::new();
    while !continued.ends_with(b"\r\n\r\n") {
        continued.push(stream.read_u8().await.unwrap());
    }
    assert!(continued.starts_with(b"HTTP/1.1 100"));

    let stopping = app.begin_stop().await;
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();

    assert_eq!(status_line(&answer), "HTTP/1.1 201 Created", "{answer}");
    stopping.await.unwrap();
}
