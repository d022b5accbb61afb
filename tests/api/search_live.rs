//! `GET /search/live`: the first results under the header's search box, for the
//! signed-in reader only and never a document they may not read.

use reqwest::{StatusCode, header};

use crate::helpers::{TestApp, new_client, someone_elses_private_document, spawn_app};

/// The live results for `q` as alice's box asks for them.
async fn live(app: &TestApp, q: &str) -> (StatusCode, String) {
    let res = app
        .client
        .get(format!("{}/search/live", app.address))
        .query(&[("q", q)])
        .header("HX-Request", "true")
        .header("HX-Target", "live-results")
        .send()
        .await
        .expect("GET /search/live");
    (res.status(), res.text().await.expect("body"))
}

#[tokio::test]
async fn three_letters_show_a_readable_documents_title_and_a_link_to_all_results() {
    let app = spawn_app().await;
    let id = app
        .create_document("Tomato plan", "beds by the south fence")
        .await;

    let res = app
        .client
        .get(format!("{}/search/live?q=tom", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let cache = res.headers().get(header::CACHE_CONTROL).cloned();
    assert_eq!(
        cache.as_ref().and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let html = res.text().await.unwrap();

    assert!(html.contains(&format!("href=\"/d/{id}\"")), "{html}");
    assert!(html.contains("ato plan"), "the title: {html}");
    assert!(
        html.contains("<mark>"),
        "the letters typed are marked: {html}"
    );
    assert!(html.contains("href=\"/search?q=tom\""), "{html}");
    assert!(html.contains("All results for “tom”"), "{html}");
    assert!(!html.contains("<html"), "a fragment, never a page");
}

#[tokio::test]
async fn another_persons_private_document_never_shows() {
    let app = spawn_app().await;
    app.create_document("Quarterly notes", "figures").await;
    let (bob, _, _) = someone_elses_private_document(
        &app,
        "bob",
        &[("title", "Quarrel secret"), ("body", "quarantined words")],
    )
    .await;

    let (status, html) = live(&app, "qua").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("rterly notes"), "her own: {html}");
    assert!(!html.contains("secret"), "bob's title leaked: {html}");
    assert!(!html.contains("quarantined"), "bob's text leaked: {html}");

    let (_, html) = live(&app, "quarr").await;
    assert!(html.contains("Nothing found"), "{html}");
    assert!(!html.contains("secret"), "{html}");

    // Bob finds his own.
    let html = bob
        .get(format!("{}/search/live?q=qua", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("secret"), "bob's own document: {html}");
    assert!(!html.contains("rterly"), "alice's private one: {html}");
}

#[tokio::test]
async fn a_stranger_is_sent_to_sign_in() {
    let app = spawn_app().await;
    app.create_document("Tomato plan", "beds").await;

    let res = new_client()
        .get(format!("{}/search/live?q=tom", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "live-results")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let to = res
        .headers()
        .get(header::LOCATION)
        .unwrap()
        .to_str()
        .unwrap();
    assert!(to.starts_with("/login"), "{to}");
    assert!(!res.text().await.unwrap().contains("Tomato"));
}

#[tokio::test]
async fn an_empty_search_answers_with_an_empty_body() {
    let app = spawn_app().await;
    app.create_document("Tomato plan", "beds").await;

    for q in ["", "   "] {
        let (status, html) = live(&app, q).await;
        assert_eq!(status, StatusCode::OK, "{q:?}");
        assert_eq!(html, "", "{q:?}");
    }
    let (status, html) = app.get_text("/search/live").await;
    assert_eq!((status, html.as_str()), (StatusCode::OK, ""));
}

#[tokio::test]
async fn no_input_is_a_server_error_and_every_one_is_escaped() {
    let app = spawn_app().await;
    app.create_document("Tomato plan", "beds").await;
    let long = "tom".repeat(200);
    let inputs = [
        "\"",
        "-",
        "*",
        "\"NEAR(* -title:",
        "tag:",
        "in:",
        "OR",
        "'; DROP TABLE documents; --",
        "<script>alert(1)</script>",
        long.as_str(),
    ];
    for q in inputs {
        let (status, html) = live(&app, q).await;
        assert_eq!(status, StatusCode::OK, "{q:?}: {html}");
        assert!(!html.contains("<script>"), "{q:?} escaped: {html}");
    }
    let (_, html) = live(&app, "a&b c").await;
    assert!(html.contains("href=\"/search?q=a%26b%20c\""), "{html}");
}

#[tokio::test]
async fn the_header_box_asks_for_live_results_and_still_submits_without_javascript() {
    let app = spawn_app().await;

    let (_, page) = app.get_text("/").await;
    let form = page
        .split("class=\"nav-search\"")
        .nth(1)
        .and_then(|rest| rest.split("</form>").next())
        .expect("the header's search form");
    assert!(
        page.contains(
            "<form method=\"get\" action=\"/search\" role=\"search\" class=\"nav-search\""
        )
    );
    assert!(form.contains("hx-get=\"/search/live\""), "{form}");
    assert!(form.contains("hx-target=\"#live-results\""), "{form}");
    assert!(form.contains("hx-push-url=\"false\""), "{form}");
    assert!(form.contains("id=\"live-results\""), "{form}");
}
