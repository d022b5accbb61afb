//! Watching a document, a space or a folder: what it tells, who may, and how
//! it is turned off.

use reqwest::StatusCode;

use crate::helpers::{Person, location, spawn_app, team_space, told};
use crate::notices::share;

#[tokio::test]
async fn watching_a_space_or_a_folder_tells_of_new_and_changed_documents_in_it() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let team = team_space(&app).await;
    // Without JavaScript: the watch page says he does not watch, then does.
    let page = bob.text(&format!("/watch?space={team}&folder=Ops")).await;
    assert!(page.contains("You are not told of changes to the folder Ops"));
    let res = bob
        .post(
            "/watch",
            &[("space", &team), ("folder", "Ops"), ("watch", "on")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).contains("m=watching"));
    let page = bob.text(&format!("/watch?space={team}&folder=Ops")).await;
    assert!(page.contains("You are told of changes to the folder Ops"));

    for (title, folder) in [("Pager rota", "Ops/Rotas"), ("Lunch menu", "Kitchen")] {
        let res = app
            .post_form(
                "/docs",
                &[
                    ("title", title),
                    ("body", "x"),
                    ("space", &team),
                    ("folder", folder),
                ],
            )
            .await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
    }
    told(&app).await;
    let inbox = bob.text("/inbox").await;
    assert!(inbox.contains("Pager rota"), "a subfolder counts: {inbox}");
    assert!(inbox.contains("alice created it"), "{inbox}");
    assert!(
        !inbox.contains("Lunch menu"),
        "another folder does not: {inbox}"
    );

    // A space bob is not in cannot be watched (nor named).
    let secret = quire::teams::spaces::create(&app.db, crate::helpers::ALICE, "Board", None)
        .await
        .unwrap()
        .to_string();
    let res = bob
        .post("/watch", &[("space", &secret), ("watch", "on")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let (status, page) = bob.page(&format!("/watch?space={secret}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("Board"));
}

#[tokio::test]
async fn turning_watching_off_keeps_edits_out_of_the_inbox() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Budget", "1").await;
    share(&app, &id, "bob").await;
    told(&app).await;
    let page = bob.text(&format!("/d/{id}/watch")).await;
    assert!(
        page.contains("Watching ✓"),
        "sharing made him watch: {page}"
    );
    let res = bob
        .post(&format!("/d/{id}/watch"), &[("watch", "off")])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    app.save(&id, "Budget", "2", 1).await;
    told(&app).await;
    assert!(!bob.text("/inbox").await.contains("edited it"));

    // Someone who may not read a document cannot watch it either.
    let carol = Person::new(&app, "carol").await;
    let res = carol
        .post(&format!("/d/{id}/watch"), &[("watch", "on")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Turning off "watch what I edit" on the account page: bob's own saves
    // no longer make him watch.
    let res = bob.post("/account/notices", &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = bob
        .post("/docs", &[("title", "Bob's notes"), ("body", "x")])
        .await;
    let mine = location(&res)
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    told(&app).await;
    let page = bob.text(&format!("/d/{mine}/watch")).await;
    assert!(page.contains(">Watch<"), "{page}");
}
