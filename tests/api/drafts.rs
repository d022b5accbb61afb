//! Drafts: autosave keeps the editor's text per user and document, offers it back
//! after a new sign-in or a restart, and forgets it once the document is saved.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, location, sign_in, spawn_app, textareas};

pub async fn autosave(
    app: &TestApp,
    id: &str,
    title: &str,
    body: &str,
    version: &str,
) -> (StatusCode, String) {
    let res = app
        .client
        .post(format!("{}/d/{id}/draft", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "draft-status")
        .header("X-CSRF-Token", &app.csrf)
        .form(&[("title", title), ("body", body), ("version", version)])
        .send()
        .await
        .unwrap();
    (res.status(), res.text().await.unwrap())
}

pub async fn drafts_in_db(app: &TestApp) -> i64 {
    quire::db::query_scalar("SELECT count(*) FROM drafts")
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn autosave_keeps_a_draft_offered_back_after_signing_in_again() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved text").await;

    let (status, html) = autosave(&app, &id, "Notes", "saved text\nand half a thought", "1").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Draft kept") && !html.contains("<title>"),
        "{html}"
    );

    // A new browser session (the old one may have expired): the draft is there.
    let (client, _) = sign_in(&app.address, "alice", PASSWORD).await;
    let page = client
        .get(format!("{}/d/{id}/edit", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(r#"id="draft-offer""#), "{page}");
    assert!(page.contains("You have unsaved changes from"));
    assert_eq!(
        textareas(&page),
        vec!["saved text".to_string()],
        "not restored unasked"
    );

    let restored = client
        .get(format!("{}/d/{id}/edit?draft=restore", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        textareas(&restored),
        vec!["saved text\nand half a thought".to_string()]
    );
    assert!(restored.contains(r#"id="draft-restored""#));
}

#[tokio::test]
async fn the_document_page_mentions_a_waiting_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    autosave(&app, &id, "Notes", "unsaved", "1").await;

    let (status, note) = app.get_text(&format!("/d/{id}/draft")).await;

    assert_eq!(status, StatusCode::OK);
    assert!(note.contains("unsaved changes") && note.contains(&format!("/d/{id}/edit")));
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains(&format!(r#"hx-get="/d/{id}/draft""#)),
        "{page}"
    );
}

#[tokio::test]
async fn saving_the_document_removes_the_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "v1").await;
    autosave(&app, &id, "Notes", "v2 in progress", "1").await;
    assert_eq!(drafts_in_db(&app).await, 1);

    let res = app.save(&id, "Notes", "v2 finished", 1).await;

    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(drafts_in_db(&app).await, 0);
    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(!page.contains("draft-offer"));
}

#[tokio::test]
async fn a_draft_that_only_repeats_the_saved_text_is_not_offered() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "same").await;
    let (status, _) = autosave(&app, &id, "Notes", "same", "1").await;
    assert_eq!(status, StatusCode::OK, "the autosave was taken");

    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;

    assert!(!page.contains("draft-offer"));
    assert_eq!(drafts_in_db(&app).await, 0);
}

#[tokio::test]
async fn discarding_a_draft_returns_to_the_saved_text() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    autosave(&app, &id, "Notes", "not wanted", "1").await;

    let res = app.post_form(&format!("/d/{id}/draft/discard"), &[]).await;

    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), format!("/d/{id}/edit?m=discarded"));
    let (_, page) = app.get_text(&location(&res)).await;
    assert!(!page.contains("draft-offer") && page.contains("discarded"));
    assert_eq!(drafts_in_db(&app).await, 0);
}

#[tokio::test]
async fn a_restored_draft_on_an_old_version_merges_with_newer_saves() {
    let app = spawn_app().await;
    let base = "one\ntwo\nthree\nfour\nfive\n";
    let id = app.create_document("Notes", base).await;
    autosave(
        &app,
        &id,
        "Notes",
        &base.replace("five\n", "five, from the draft\n"),
        "1",
    )
    .await;
    // The same user saves elsewhere (another tab) in between.
    app.save(&id, "Notes", &base.replace("one\n", "ONE\n"), 1)
        .await;
    autosave(
        &app,
        &id,
        "Notes",
        &base.replace("five\n", "five, from the draft\n"),
        "1",
    )
    .await;

    let (_, page) = app.get_text(&format!("/d/{id}/edit?draft=restore")).await;
    assert!(
        page.contains(r#"name="version" value="1""#),
        "the draft's base"
    );
    assert!(page.contains("saving merges"), "{page}");
    let body = textareas(&page).remove(0);
    let res = app.save(&id, "Notes", &body, 1).await;

    assert_eq!(location(&res), format!("/d/{id}?m=merged"));
    let (_, shown) = app.get_text(&format!("/d/{id}")).await;
    assert!(shown.contains("ONE") && shown.contains("five, from the draft"));
}

#[tokio::test]
async fn drafts_survive_a_restart_of_the_server() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    autosave(&app, &id, "Notes", "typed before the restart", "1").await;
    let (config, dir) = app.stop().await;

    let again = crate::helpers::start(config, dir).await;

    let (_, page) = again.get_text(&format!("/d/{id}/edit?draft=restore")).await;
    assert_eq!(
        textareas(&page),
        vec!["typed before the restart".to_string()]
    );
}

#[tokio::test]
async fn a_beacon_with_the_csrf_field_keeps_a_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;

    // What navigator.sendBeacon sends when the page is hidden: a plain urlencoded
    // body with the token as a field, no htmx headers.
    let res = app
        .client
        .post(format!("{}/d/{id}/draft", app.address))
        .header(
            "Content-Type",
            "application/x-www-form-urlencoded;charset=UTF-8",
        )
        .body(format!(
            "title=Notes&body=closing+the+tab&version=1&csrf={}",
            app.csrf
        ))
        .send()
        .await
        .unwrap();

    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(drafts_in_db(&app).await, 1);
}

#[tokio::test]
async fn an_oversized_autosave_is_refused_in_the_status_line_and_keeps_the_last_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    autosave(&app, &id, "Notes", "a good draft", "1").await;
    let huge = "x".repeat(app.config.max_doc_bytes + 1);

    let (status, html) = autosave(&app, &id, "Notes", &huge, "1").await;

    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        html.contains("Draft not kept") && html.contains("still here"),
        "{html}"
    );
    assert!(
        !html.contains("<form") && !html.contains("<title>"),
        "the editor is not replaced"
    );
    let (_, page) = app.get_text(&format!("/d/{id}/edit?draft=restore")).await;
    assert_eq!(textareas(&page), vec!["a good draft".to_string()]);
}

#[tokio::test]
async fn after_the_session_expires_the_last_draft_waits_for_the_next_sign_in() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    autosave(&app, &id, "Notes", "typed before the session ended", "1").await;
    quire::db::query("UPDATE sessions SET last_seen = 0")
        .execute(&app.db.write)
        .await
        .unwrap();

    // Neither an autosave nor a save goes through without a session, and neither
    // changes anything: the browser is sent to sign in.
    let res = app
        .post_form(
            &format!("/d/{id}/draft"),
            &[
                ("title", "Notes"),
                ("body", "typed after"),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with("/login?next="));
    // A plain form save is asked to sign in, with its text kept on the page.
    let res = app.save(&id, "Notes", "typed after", 1).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(textareas(&res.text().await.unwrap()).contains(&"typed after".to_string()));

    let (client, _) = sign_in(&app.address, "alice", PASSWORD).await;
    let page = client
        .get(format!("{}/d/{id}/edit?draft=restore", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        textareas(&page),
        vec!["typed before the session ended".to_string()]
    );
}
