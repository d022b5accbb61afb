//! The editor's preview: the same renderer and sanitiser as a save, nothing stored,
//! the size cap kept; the HTML alone for the live pane, the whole editor without
//! JavaScript.

use reqwest::StatusCode;

use crate::helpers::{TestApp, spawn_app, spawn_with, textareas};

async fn pane(app: &TestApp, body: &str) -> (StatusCode, String) {
    let res = app
        .client
        .post(format!("{}/preview", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "preview")
        .header("X-CSRF-Token", &app.csrf)
        .form(&[("title", "T"), ("body", body)])
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.text().await.unwrap())
}

async fn documents(app: &TestApp) -> i64 {
    quire::db::query_scalar("SELECT COUNT(*) FROM documents")
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_live_pane_gets_the_text_rendered_and_sanitised_and_nothing_is_stored() {
    let app = spawn_app().await;
    let before = documents(&app).await;
    let (status, html) = pane(
        &app,
        "# Plan\n\n- [ ] ship *soon*\n\n<script>alert(1)</script><img src=x onerror=alert(1)>",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"<h1 id="h-plan">Plan<a"#), "{html}");
    assert!(
        html.contains(r#"<input type="checkbox" disabled> ship <em>soon</em>"#),
        "{html}"
    );
    assert!(
        !html.contains("<script") && !html.contains("onerror"),
        "{html}"
    );
    assert!(!html.contains("<html"), "the pane gets the HTML alone");
    assert_eq!(documents(&app).await, before, "a preview stores nothing");

    let (status, html) = pane(&app, "   ").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Nothing to preview yet"), "{html}");
}

#[tokio::test]
async fn a_text_over_the_cap_gets_no_preview_but_a_reason() {
    let app = spawn_with(|c| c.max_doc_bytes = 1_000).await;
    let (status, html) = pane(&app, &"x".repeat(1_200)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        html.contains("200 bytes over the limit of 1000 bytes"),
        "{html}"
    );
}

#[tokio::test]
async fn without_javascript_preview_shows_the_editor_again_with_the_text_and_its_rendering() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved text").await;
    let typed = "## Typed\n\nnot *saved* yet";
    let res = app
        .post_form(
            "/preview",
            &[
                ("doc", &id),
                ("title", "Notes v2"),
                ("body", typed),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert_eq!(textareas(&page), vec![typed.to_owned()]);
    assert!(
        page.contains(r#"<h2 id="h-typed">Typed<a"#) && page.contains("<em>saved</em>"),
        "{page}"
    );
    assert!(page.contains(&format!(r#"action="/d/{id}""#)), "{page}");
    assert!(page.contains(r#"name="version" value="1""#), "{page}");
    assert!(page.contains(r#"value="Notes v2""#), "{page}");
    let (_, shown) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        shown.contains("saved text") && !shown.contains("Typed"),
        "nothing saved"
    );

    // An id that is not one is ignored: the editor of a new document.
    let res = app
        .post_form(
            "/preview",
            &[("doc", "../admin"), ("title", "x"), ("body", "y")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains(r#"action="/docs""#));
}

#[tokio::test]
async fn strangers_get_no_preview() {
    let app = spawn_app().await;
    let stranger = crate::helpers::new_client();
    let res = stranger
        .post(format!("{}/preview", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "preview")
        .form(&[("body", "# hi")])
        .send()
        .await
        .unwrap();
    assert!(
        res.status() == StatusCode::FORBIDDEN || res.status() == StatusCode::SEE_OTHER,
        "{}",
        res.status()
    );
    assert!(!res.text().await.unwrap().contains("<h1>hi</h1>"));
}

#[tokio::test]
async fn the_preview_measures_a_text_as_a_save_does() {
    // CRLF line ends are stored as LF: 1,200 bytes sent, 800 kept, under a cap of 1,000.
    let app = spawn_with(|c| c.max_doc_bytes = 1_000).await;
    let (status, html) = pane(&app, &"x\r\n".repeat(400)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
}
