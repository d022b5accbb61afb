//! Who is editing now, and the editor's "merge their changes into yours":
//! polled by htmx in the browser, here asked as htmx asks.

use reqwest::StatusCode;

use crate::helpers::{Person, TestApp, create_in, location, spawn_app, team_space};

/// A document in the team space, which everyone may edit; its id.
async fn team_document(app: &TestApp, body: &str) -> String {
    let team = team_space(app).await;
    create_in(app, "Runbook", body, &team).await
}

#[tokio::test]
async fn editors_see_each_other_and_who_saved_while_they_edit() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = team_document(&app, "one\ntwo\nthree\n").await;

    // Bob's editor says it is open, on version 1.
    let res = bob
        .post(&format!("/d/{id}/editing"), &[("version", "1")])
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, alice_sees) = app.get_text(&format!("/d/{id}/editing")).await;
    assert!(
        alice_sees.contains("Also editing now: <strong>bob</strong>"),
        "{alice_sees}"
    );
    // Bob does not see himself; a stranger to the document learns nothing.
    let own = bob.text(&format!("/d/{id}/editing")).await;
    assert!(!own.contains("Also editing"), "{own}");
    let secret = app.create_document("Private", "x").await;
    let (status, page) = carol.page(&format!("/d/{secret}/editing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("Private"));
    let res = carol
        .post(&format!("/d/{secret}/editing"), &[("version", "1")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Alice saves: bob's next look names her and offers her changes.
    let res = app.save(&id, "Runbook", "ONE\ntwo\nthree\n", 1).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let page = bob
        .post(&format!("/d/{id}/editing"), &[("version", "1")])
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("alice saved version 2 while you were editing"),
        "{page}"
    );
    assert!(page.contains(&format!(r#"formaction="/d/{id}/catch-up""#)));

    // He takes them: his editor gets both changes, based on version 2, and
    // nothing is saved until he saves.
    let res = bob
        .post(
            &format!("/d/{id}/catch-up"),
            &[
                ("title", "Runbook"),
                ("body", "one\ntwo\nTHREE\n"),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(page.contains("ONE\ntwo\nTHREE\n"), "{page}");
    assert!(page.contains(r#"name="version" value="2""#), "{page}");
    assert!(page.contains("Nothing is saved yet"));
    let version: i64 = quire::db::query_scalar("SELECT version FROM documents WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    assert_eq!(version, 2, "taking their changes saves nothing");
    let res = bob
        .post(
            &format!("/d/{id}"),
            &[
                ("title", "Runbook"),
                ("body", "ONE\ntwo\nTHREE\n"),
                ("version", "2"),
            ],
        )
        .await;
    assert!(
        location(&res).contains("m=saved"),
        "a plain save, no merge needed"
    );
}

#[tokio::test]
async fn taking_changes_that_overlap_shows_the_merge_page_with_both_texts() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = team_document(&app, "one\ntwo\n").await;
    app.save(&id, "Runbook", "one\nalice two\n", 1).await;
    let res = bob
        .post(
            &format!("/d/{id}/catch-up"),
            &[
                ("title", "Runbook"),
                ("body", "one\nbob two\n"),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("alice saved"),
        "the merge page names who saved: {page}"
    );
    assert!(
        page.contains("bob two") && page.contains("alice two"),
        "{page}"
    );
    // A reader who may not edit cannot take changes into an editor either.
    let mine = app.create_document("Mine", "a").await;
    let res = bob
        .post(
            &format!("/d/{mine}/catch-up"),
            &[("title", "Mine"), ("body", "b"), ("version", "1")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
