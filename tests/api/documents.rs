use reqwest::StatusCode;

use crate::helpers::{location, spawn_app, textareas};

#[tokio::test]
async fn created_document_is_shown_rendered_and_sanitised() {
    let app = spawn_app().await;
    let id = app
        .create_document(
            "Shopping",
            "# Groceries\n\n- *eggs*\n\n<script>alert(1)</script>",
        )
        .await;

    let (status, html) = app.get_text(&format!("/d/{id}")).await;

    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(r#"<h1 id="h-groceries">Groceries<a"#),
        "{html}"
    );
    assert!(html.contains("<em>eggs</em>"));
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("<title>Shopping · quire</title>"));
}

#[tokio::test]
async fn create_redirects_to_an_opaque_id_with_a_message() {
    let app = spawn_app().await;
    let res = app
        .post_form("/docs", &[("title", "A"), ("body", "b")])
        .await;
    let to = location(&res);
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(to.starts_with("/d/") && to.ends_with("?m=created"), "{to}");
    assert_eq!(to.len(), "/d/".len() + 26 + "?m=created".len());

    let (_, page) = app.get_text(&to).await;
    assert!(page.contains("Created."));
}

#[tokio::test]
async fn home_lists_documents_newest_first_with_pages() {
    let app = spawn_app().await;
    for i in 0..52 {
        app.create_document(&format!("Doc number {i:02}"), "text")
            .await;
    }
    let (_, first) = app.get_text("/").await;
    let newest = first.find("Doc number 51").expect("newest on page 1");
    let older = first
        .find("Doc number 50")
        .expect("second newest on page 1");
    assert!(newest < older);
    assert!(!first.contains("Doc number 01"));
    assert!(first.contains(r#"href="/?page=2""#));

    let (_, second) = app.get_text("/?page=2").await;
    assert!(second.contains("Doc number 01") && second.contains("Doc number 00"));
    assert!(!second.contains("Doc number 51"));
    assert!(!second.contains(r#"href="/?page=3""#));
}

#[tokio::test]
async fn edit_form_holds_the_current_text_and_version() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "line one\nline <two>").await;

    let (status, html) = app.get_text(&format!("/d/{id}/edit")).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(textareas(&html), vec!["line one\nline <two>".to_string()]);
    assert!(html.contains(r#"name="version" value="1""#));
}

#[tokio::test]
async fn saving_replaces_the_text_and_bumps_the_version() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "old").await;

    let res = app.save(&id, "Notes v2", "new **text**", 1).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), format!("/d/{id}?m=saved"));

    let (_, html) = app.get_text(&format!("/d/{id}")).await;
    assert!(html.contains("Notes v2"));
    assert!(html.contains("<strong>text</strong>"));
    assert!(html.contains("version 2"));
    assert!(!html.contains("<p>old</p>"));
}

#[tokio::test]
async fn stale_version_save_returns_409_with_both_texts() {
    let app = spawn_app().await;
    let id = app.create_document("Plan", "original").await;
    assert_eq!(
        app.save(&id, "Plan", "theirs", 1).await.status(),
        StatusCode::SEE_OTHER
    );

    let res = app.save(&id, "Plan", "mine, typed carefully", 1).await;

    assert_eq!(res.status(), StatusCode::CONFLICT);
    let html = res.text().await.unwrap();
    let areas = textareas(&html);
    assert!(
        areas.contains(&"mine, typed carefully".to_string()),
        "{areas:?}"
    );
    assert!(areas.contains(&"theirs".to_string()), "{areas:?}");
    // "Save mine anyway" is based on the version now current, so it goes through.
    assert!(html.contains(r#"name="version" value="2""#));
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(page.contains("theirs"), "the conflict must not overwrite");

    let again = app.save(&id, "Plan", "mine, typed carefully", 2).await;
    assert_eq!(again.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn documents_survive_a_restart_of_the_server() {
    let app = spawn_app().await;
    let id = app.create_document("Kept", "still here").await;
    let (config, dir) = app.stop().await;

    let again = crate::helpers::start(config, dir).await;

    let (status, html) = again.get_text(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("still here"));
}
