//! Several documents chosen in the list and changed at once: moved to a folder,
//! tagged, or moved to the trash, each as its own versioned change with the same
//! rights checked; a document the reader may not change is refused by id, its
//! title kept secret, and the others still change.

use reqwest::StatusCode;

use crate::helpers::{TestApp, location, someone_elses_private_document, spawn_app};

/// Sends the list's form with these documents ticked and these fields.
async fn choose(app: &TestApp, ids: &[&str], fields: &[(&str, &str)]) -> reqwest::Response {
    let ticked: Vec<String> = ids.iter().map(|id| format!("pick.{id}")).collect();
    let mut form: Vec<(&str, &str)> = ticked.iter().map(|k| (k.as_str(), "1")).collect();
    form.extend_from_slice(fields);
    app.post_form("/selection", &form).await
}

#[tokio::test]
async fn chosen_documents_are_moved_tagged_and_trashed_together() {
    let app = spawn_app().await;
    let a = app.create_document("Minutes March", "one").await;
    let b = app.create_document("Minutes April", "two").await;
    let c = app.create_document("Left alone", "three").await;
    let ids = [a.as_str(), b.as_str()];

    let res = choose(
        &app,
        &ids,
        &[
            ("action", "move"),
            ("folder", "Archive / 2026"),
            ("back", "/?sort=title&"),
        ],
    )
    .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), "/?sort=title&m=chosen-moved");
    let (_, list) = app.get_text("/?folder=Archive/2026").await;
    assert!(list.contains("2 documents in Archive/2026"), "{list}");
    assert!(list.contains("Minutes March") && list.contains("Minutes April"));
    assert!(!list.contains("Left alone"));
    // Each move is a new version of its document.
    let (_, page) = app.get_text(&format!("/d/{a}")).await;
    assert!(page.contains("version 2"), "{page}");

    let res = choose(&app, &ids, &[("action", "tag"), ("tags", "minutes, Q1")]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, list) = app.get_text("/?tag=q1").await;
    assert!(list.contains("2 documents"), "{list}");

    let res = choose(&app, &ids, &[("action", "trash")]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, list) = app.get_text("/").await;
    assert!(
        list.contains("1 document") && list.contains("Left alone"),
        "{list}"
    );
    let (_, trash) = app.get_text("/trash").await;
    assert!(trash.contains("Minutes March") && trash.contains("Minutes April"));

    // Nothing chosen, or no action: said, nothing changed.
    let res = choose(&app, &[], &[("action", "trash")]).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = choose(&app, &[c.as_str()], &[]).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_chosen_document_the_reader_may_not_change_is_refused_without_its_title() {
    let app = spawn_app().await;
    let mine = app.create_document("My notes", "mine").await;
    let (bob, _, theirs) = someone_elses_private_document(
        &app,
        "bob",
        &[("title", "Zebra merger plan"), ("body", "secret")],
    )
    .await;
    let res = choose(&app, &[&mine, &theirs], &[("action", "trash")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("1 document was changed; 1 could not be"),
        "{page}"
    );
    assert!(page.contains(&theirs), "{page}");
    assert!(!page.contains("Zebra"), "{page}");
    let (_, trash) = app.get_text("/trash").await;
    assert!(trash.contains("My notes"), "{trash}");
    // Bob's document is where it was.
    let res = bob
        .get(format!("{}/d/{theirs}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(!res.text().await.unwrap().contains("in the trash"));
}
