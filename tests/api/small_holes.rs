//! Smaller holes found by trying to break quire: trashed history, invisible
//! titles, form fields smuggled into a document.

use reqwest::StatusCode;

use crate::helpers::{spawn_app, textareas};

#[tokio::test]
async fn a_trashed_documents_revisions_are_gone_like_its_page() {
    let app = spawn_app().await;
    let id = app.create_document("Old plan", "first secret").await;
    app.save(&id, "Old plan", "second secret", 1).await;
    assert_eq!(
        app.get(&format!("/d/{id}/r/1")).await.status(),
        StatusCode::OK
    );
    app.post_form(&format!("/d/{id}/delete"), &[]).await;

    for path in [
        format!("/d/{id}/r/1"),
        format!("/d/{id}/diff?from=1&to=2"),
        format!("/d/{id}/history"),
    ] {
        let (status, page) = app.get_text(&path).await;
        assert_eq!(status, StatusCode::GONE, "{path}");
        assert!(!page.contains("first secret"), "{path}");
        assert!(page.contains("in the trash"), "{path}");
    }
}

#[tokio::test]
async fn a_title_with_no_visible_character_is_refused_with_the_text_kept() {
    let app = spawn_app().await;
    for title in [
        "\u{200B}",
        "\u{202E}",
        "\u{FEFF}",
        " \u{200B}\u{202E}\u{FEFF} ",
    ] {
        let res = app
            .post_form("/docs", &[("title", title), ("body", "kept words")])
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{title:?}");
        let html = res.text().await.expect("body");
        assert!(html.contains("no visible character"), "{title:?}");
        assert_eq!(textareas(&html), vec!["kept words".to_string()]);
    }
    let (_, list) = app.get_text("/").await;
    assert!(!list.contains("\u{200B}"));
}

#[tokio::test]
async fn form_fields_written_in_a_document_are_not_shown_but_task_boxes_are() {
    let app = spawn_app().await;
    let id = app
        .create_document(
            "Phish",
            "Sign in again: <input type=\"password\" name=\"password\" placeholder=\"Password\">\n\n\
             <input type=\"submit\" value=\"Go\">\n\n- [x] done\n- [ ] todo",
        )
        .await;
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    let doc = page
        .split("class=\"prose\"")
        .nth(1)
        .and_then(|rest| rest.split(r#"<section class="talk""#).next())
        .expect("the document body");
    assert!(!doc.contains(r#"type="password""#), "{doc}");
    assert!(!doc.contains(r#"type="submit""#), "{doc}");
    assert_eq!(doc.matches(r#"type="checkbox""#).count(), 2, "{doc}");
}

#[tokio::test]
async fn a_failure_while_checking_who_asks_is_a_page_or_json_not_an_empty_500() {
    let app = spawn_app().await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    for table in ["sessions", "api_tokens"] {
        quire::db::query(format!("ALTER TABLE {table} RENAME TO {table}_gone"))
            .execute(&app.db.write)
            .await
            .expect("renaming a table");
    }

    let (status, page) = app.get_text("/").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(page.contains("Something went wrong"), "{page}");
    assert!(page.contains("</html>"), "the page has its layout: {page}");

    let res = app
        .client
        .get(format!("{}/api/v1/documents", app.address))
        .bearer_auth(&token)
        .send()
        .await
        .expect("GET /api/v1/documents");
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body: serde_json::Value = res.json().await.expect("a JSON error body");
    assert!(body["error"].is_string(), "{body}");
}

/// Found by the API fuzzer: a page number near the largest integer overflowed
/// the offset (the connection dropped without an answer).
#[tokio::test]
async fn a_page_number_past_every_page_is_an_empty_page_not_a_dropped_connection() {
    let app = spawn_app().await;
    let id = app.create_document("Only one", "text").await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let huge = i64::MAX - 1;
    let res = reqwest::Client::new()
        .get(format!("{}/api/v1/documents?page={huge}", app.address))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["documents"], serde_json::json!([]));
    assert_eq!(body["more"], false);
    for path in [
        format!("/?page={huge}"),
        format!("/trash?page={huge}"),
        format!("/d/{id}/history?page={huge}"),
    ] {
        assert_eq!(app.get(&path).await.status(), StatusCode::OK, "{path}");
    }
    let (_, past) = app.get_text(&format!("/?page={huge}")).await;
    assert!(!past.contains("Only one"));
    let (_, first) = app.get_text("/?page=1").await;
    assert!(first.contains("Only one"));
}
