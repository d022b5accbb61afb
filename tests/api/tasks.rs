//! Ticking a task-list box on the document page saves the document: the n-th
//! task of the version the page showed, as a new revision, merged with saves
//! made since; readers cannot.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, spawn_app, textareas};

async fn tick(
    app: &TestApp,
    id: &str,
    index: &str,
    done: &str,
    version: &str,
) -> (StatusCode, String) {
    let res = app
        .client
        .post(format!("{}/d/{id}/task", app.address))
        .header("X-CSRF-Token", &app.csrf)
        .form(&[("index", index), ("done", done), ("version", version)])
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.text().await.unwrap())
}

async fn body(app: &TestApp, id: &str) -> String {
    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;
    textareas(&page).remove(0)
}

#[tokio::test]
async fn ticking_a_box_saves_a_new_revision_and_merges_with_saves_made_since() {
    let app = spawn_app().await;
    let id = app
        .create_document("Todo", "intro\n\n- [ ] milk\n- [ ] bread\n\nend")
        .await;
    let (status, answer) = tick(&app, &id, "1", "true", "1").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer.contains(r#""version":2"#), "{answer}");
    assert_eq!(
        body(&app, &id).await,
        "intro\n\n- [ ] milk\n- [x] bread\n\nend"
    );

    // Someone else saved since the page showed version 2: the tick merges.
    app.save(
        &id,
        "Todo",
        "intro, longer\n\n- [ ] milk\n- [x] bread\n\nend",
        2,
    )
    .await;
    let (status, answer) = tick(&app, &id, "0", "true", "2").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer.contains(r#""merged":true"#), "{answer}");
    assert_eq!(
        body(&app, &id).await,
        "intro, longer\n\n- [x] milk\n- [x] bread\n\nend"
    );

    let (status, answer) = tick(&app, &id, "7", "true", "4").await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, _) = tick(&app, &id, "0", "maybe", "4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_reader_cannot_tick_and_nothing_changes() {
    let app = spawn_app().await;
    let id = app.create_document("Shared", "- [ ] one").await;
    app.post_form(
        &format!("/d/{id}/share"),
        &[("action", "visibility"), ("visibility", "read")],
    )
    .await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (client, csrf) = crate::helpers::sign_in(&app.address, "bob", PASSWORD).await;
    let res = client
        .post(format!("{}/d/{id}/task", app.address))
        .header("X-CSRF-Token", &csrf)
        .form(&[("index", "0"), ("done", "true"), ("version", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(body(&app, &id).await, "- [ ] one");
    let (_, page) = client
        .get(format!("{}/d/{id}", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .map(|t| ((), t))
        .unwrap();
    assert!(
        !page.contains("data-tasks"),
        "no ticking for readers: {page}"
    );
}
