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
    assert!(part.contains("my v2") && part.contains("v2"));
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

#[tokio::test]
async fn oversized_request_heads_are_refused() {
    let app = spawn_app().await;
    // Its own client: the server drops that connection, which must not be reused.
    let res = crate::helpers::new_client()
        .get(format!("{}/", app.address))
        .header("X-Padding", "a".repeat(200 * 1024))
        .send()
        .await;
    match res {
        Ok(r) => assert_eq!(r.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE),
        Err(e) => assert!(e.is_request() || e.is_connect(), "{e}"),
    }
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
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
