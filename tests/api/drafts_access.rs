//! Drafts belong to one user: nobody else reads or writes them, readers and
//! anonymous browsers keep none.

use reqwest::StatusCode;

use crate::drafts::{autosave, drafts_in_db};
use crate::helpers::{PASSWORD, sign_in, spawn_app, textareas};

/// A plain form post of a draft from another browser (its own cookies and token).
async fn draft_as(
    client: &reqwest::Client,
    csrf: &str,
    url: &str,
    body: &str,
) -> reqwest::Response {
    client
        .post(url)
        .form(&[
            ("title", "x"),
            ("body", body),
            ("version", "1"),
            ("csrf", csrf),
        ])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn other_users_neither_see_nor_touch_your_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Shared", "saved").await;
    let private = app.create_document("Private", "mine").await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    app.post_form(
        &format!("/d/{id}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "edit")],
    )
    .await;
    autosave(&app, &id, "Shared", "alice's secret draft", "1").await;
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let get = |path: String| {
        let bob = bob.clone();
        async move { bob.get(path).send().await.unwrap().text().await.unwrap() }
    };

    let page = get(format!("{}/d/{id}/edit", app.address)).await;
    assert!(!page.contains("draft-offer") && !page.contains("secret"));
    let page = get(format!("{}/d/{id}/edit?draft=restore", app.address)).await;
    assert!(!page.contains("secret"));
    let note = get(format!("{}/d/{id}/draft", app.address)).await;
    assert!(!note.contains("unsaved"));

    let post = |url: String, body: &'static str| {
        let (bob, csrf) = (bob.clone(), csrf.clone());
        async move { draft_as(&bob, &csrf, &url, body).await.status() }
    };
    // His own draft of the shared document is his; hers stays as it was.
    assert_eq!(
        post(format!("{}/d/{id}/draft", app.address), "bob's").await,
        StatusCode::OK
    );
    assert_eq!(
        post(format!("{}/d/{private}/draft", app.address), "intruder").await,
        StatusCode::NOT_FOUND
    );
    let (_, page) = app.get_text(&format!("/d/{id}/edit?draft=restore")).await;
    assert_eq!(textareas(&page), vec!["alice's secret draft".to_string()]);
    assert_eq!(drafts_in_db(&app).await, 2);
}

#[tokio::test]
async fn a_reader_cannot_keep_a_draft() {
    let app = spawn_app().await;
    let id = app.create_document("Read only", "saved").await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    app.post_form(
        &format!("/d/{id}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;

    let res = draft_as(&bob, &csrf, &format!("{}/d/{id}/draft", app.address), "y").await;

    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("may read this document but not change it")
    );
    assert_eq!(drafts_in_db(&app).await, 0);
}

#[tokio::test]
async fn an_anonymous_request_cannot_read_or_write_drafts() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    let (anon, csrf) = crate::helpers::anonymous(&app.address).await;

    let res = draft_as(&anon, &csrf, &format!("{}/d/{id}/draft", app.address), "y").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = anon
        .get(format!("{}/d/{id}/draft", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(drafts_in_db(&app).await, 0);
}
