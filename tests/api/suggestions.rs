//! Suggested edits: a reader proposes a version; those who may edit the
//! document review it against the current text and accept it (merged like a
//! save, both names in the history) or decline it; its author is told either
//! way, and nobody else sees it.

use reqwest::StatusCode;

use crate::helpers::{Person, TestApp, location, spawn_app, told};
use crate::notices::share;

/// `who` suggests `body` for document `id` based on `base`; the suggestion's id.
async fn suggest(who: &Person, id: &str, base: i64, body: &str) -> i64 {
    let base = base.to_string();
    let res = who
        .post(
            &format!("/d/{id}/suggest"),
            &[
                ("base", &base),
                ("title", "Onboarding"),
                ("body", body),
                ("note", "clearer order"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "suggest on {id}");
    let to = location(&res);
    to.trim_start_matches(&format!("/d/{id}/suggestions/"))
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

async fn body_of(app: &TestApp, id: &str) -> (String, i64) {
    quire::db::query_as("SELECT body, version FROM documents WHERE id = $1")
        .bind(id)
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

const TEXT: &str = "1. Laptop\n2. Accounts\n3. Tour\n4. Lunch\n5. Docs\n";

#[tokio::test]
async fn a_reader_suggests_and_an_editor_accepts_with_both_names_in_the_history() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = app.create_document("Onboarding", TEXT).await;
    share(&app, &id, "bob").await;

    let (status, _) = bob.page(&format!("/d/{id}/edit")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "bob may only read");
    assert!(
        bob.text(&format!("/d/{id}"))
            .await
            .contains("Suggest an edit")
    );
    let mine = TEXT.replace("3. Tour", "3. Tour of the office");
    let sid = suggest(&bob, &id, 1, &mine).await;
    assert!(
        bob.text(&format!("/d/{id}"))
            .await
            .contains("bob's suggestion")
    );
    // Someone who may not read the document sees nothing of it.
    let (status, _) = carol.page(&format!("/d/{id}/suggestions/{sid}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let res = carol
        .post(
            &format!("/d/{id}/suggest"),
            &[("base", "1"), ("title", "x"), ("body", "y")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    told(&app).await;
    let (_, inbox) = app.get_text("/inbox").await;
    assert!(inbox.contains("bob suggested an edit"), "{inbox}");
    let (_, review) = app.get_text(&format!("/d/{id}/suggestions/{sid}")).await;
    assert!(
        review.contains("+1 −1 lines against the current text"),
        "{review}"
    );
    assert!(review.contains("clearer order") && review.contains("Accept and save"));
    // bob may not decide his own suggestion.
    let res = bob
        .post(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    let res = app
        .post_form(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(body_of(&app, &id).await, (mine.clone(), 2));
    let (_, history) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(history.contains("by alice, suggested by bob"), "{history}");
    told(&app).await;
    assert!(
        bob.text("/inbox")
            .await
            .contains("alice accepted your suggested edit")
    );
    assert!(
        bob.text(&format!("/d/{id}/suggestions/{sid}"))
            .await
            .contains("Accepted by alice")
    );
    let res = app
        .post_form(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "not twice");
    assert_eq!(body_of(&app, &id).await.1, 2);
}

#[tokio::test]
async fn accepting_merges_with_later_saves_and_overlapping_changes_open_the_merge() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Onboarding", TEXT).await;
    share(&app, &id, "bob").await;
    let clean = suggest(
        &bob,
        &id,
        1,
        &TEXT.replace("1. Laptop", "1. Laptop and badge"),
    )
    .await;
    let clash = suggest(&bob, &id, 1, &TEXT.replace("5. Docs", "5. Read the docs")).await;
    // Since then alice changed the last line.
    let res = app
        .save(
            &id,
            "Onboarding",
            &TEXT.replace("5. Docs", "5. Handbook"),
            1,
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let res = app
        .post_form(&format!("/d/{id}/suggestions/{clean}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (body, version) = body_of(&app, &id).await;
    assert_eq!(version, 3);
    assert!(
        body.contains("1. Laptop and badge") && body.contains("5. Handbook"),
        "{body}"
    );

    let res = app
        .post_form(&format!("/d/{id}/suggestions/{clash}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("Read the docs") && page.contains("Handbook"),
        "both sides shown"
    );
    assert_eq!(body_of(&app, &id).await.1, 3, "nothing saved");
    let (_, review) = app.get_text(&format!("/d/{id}/suggestions/{clash}")).await;
    assert!(review.contains("Accept and save"), "still open");
}

#[tokio::test]
async fn a_declined_suggestion_tells_its_author_why_and_others_see_only_their_own() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = app.create_document("Onboarding", TEXT).await;
    share(&app, &id, "bob").await;
    share(&app, &id, "carol").await;
    let sid = suggest(&bob, &id, 1, &TEXT.replace("4. Lunch", "4. Team lunch")).await;
    let (status, _) = carol.page(&format!("/d/{id}/suggestions/{sid}")).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "a reader sees only their own"
    );
    told(&app).await;
    let inbox = carol.text("/inbox").await;
    assert!(
        inbox.contains("shared it with you"),
        "carol watches it: {inbox}"
    );
    assert!(
        !inbox.contains("suggested an edit"),
        "only those who may decide are told"
    );
    assert!(
        !carol
            .text(&format!("/d/{id}"))
            .await
            .contains("bob's suggestion")
    );
    let res = carol
        .post(
            &format!("/d/{id}/suggestions/{sid}/decline"),
            &[("answer", "no")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let res = app
        .post_form(
            &format!("/d/{id}/suggestions/{sid}/decline"),
            &[("answer", "Lunch is optional.")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(body_of(&app, &id).await.1, 1, "nothing saved");
    told(&app).await;
    assert!(
        bob.text("/inbox")
            .await
            .contains("alice declined your suggested edit")
    );
    let review = bob.text(&format!("/d/{id}/suggestions/{sid}")).await;
    assert!(review.contains("Declined by alice") && review.contains("Lunch is optional."));
    let res = app
        .post_form(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // A suggestion that changes nothing is refused, with the text kept.
    let res = bob
        .post(
            &format!("/d/{id}/suggest"),
            &[("base", "1"), ("title", "Onboarding"), ("body", TEXT)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.text().await.unwrap().contains("Nothing is changed"));
}

#[tokio::test]
async fn the_editors_suggest_instead_sends_its_version_as_the_base() {
    let app = spawn_app().await;
    let id = app.create_document("Onboarding", TEXT).await;
    let res = app
        .post_form(
            &format!("/d/{id}/suggest"),
            &[
                ("version", "1"),
                ("title", "Onboarding"),
                ("body", "1. Laptop\n"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        body_of(&app, &id).await,
        (TEXT.to_owned(), 1),
        "nothing saved"
    );
    let (_, page) = app.get_text(&location(&res)).await;
    assert!(page.contains("based on version 1"), "{page}");
}
