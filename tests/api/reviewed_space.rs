//! A space that reviews changes before they are published: its editors
//! suggest instead of saving, its managers (and each document's owner) save
//! and accept; nobody reads more or less than before.

use reqwest::StatusCode;

use crate::helpers::{Person, create_in, location, spawn_app, team_space};

#[tokio::test]
async fn in_a_reviewed_space_editors_suggest_and_managers_accept() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let team = team_space(&app).await;
    // carol manages Team; bob edits it (as every account does); alice owns the page.
    let res = app
        .post_form(
            &format!("/spaces/{team}"),
            &[("action", "member"), ("name", "carol"), ("role", "manage")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let id = create_in(&app, "Security policy", "Rotate keys yearly.", &team).await;
    let res = bob
        .post(
            &format!("/d/{id}"),
            &[
                ("title", "Security policy"),
                ("body", "v2"),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "before review, bob saves"
    );

    let res = app
        .post_form(
            &format!("/spaces/{team}"),
            &[
                ("action", "settings"),
                ("name", "Team"),
                ("default_role", "edit"),
                ("review", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    // bob may no longer save, and is offered Suggest instead of Edit.
    let (status, _) = bob.page(&format!("/d/{id}/edit")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let res = bob
        .post(
            &format!("/d/{id}"),
            &[
                ("title", "Security policy"),
                ("body", "v3"),
                ("version", "2"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(
        res.text().await.unwrap().contains("v3"),
        "his text comes back"
    );
    let page = bob.text(&format!("/d/{id}")).await;
    assert!(page.contains("Suggest an edit") && !page.contains(&format!("/d/{id}/edit\"")));
    let res = bob
        .post(
            &format!("/d/{id}/suggest"),
            &[
                ("base", "2"),
                ("title", "Security policy"),
                ("body", "Rotate keys monthly."),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let sid = location(&res)
        .split('/')
        .nth(4)
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let res = bob
        .post(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(
        res.status(),
        StatusCode::FORBIDDEN,
        "an editor does not publish"
    );

    // The manager accepts it; the owner still saves directly.
    let res = carol
        .post(&format!("/d/{id}/suggestions/{sid}/accept"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = app
        .save(&id, "Security policy", "Rotate keys monthly. Log it.", 3)
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (body, version): (String, i64) =
        quire::db::query_as("SELECT body, version FROM documents WHERE id = $1")
            .bind(&id)
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    assert_eq!(
        (body.as_str(), version),
        ("Rotate keys monthly. Log it.", 4)
    );
    // Reading is as before.
    assert!(bob.text(&format!("/d/{id}")).await.contains("Log it."));

    // Review off: bob saves again.
    let res = app
        .post_form(
            &format!("/spaces/{team}"),
            &[
                ("action", "settings"),
                ("name", "Team"),
                ("default_role", "edit"),
                ("review", "off"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = bob
        .post(
            &format!("/d/{id}"),
            &[
                ("title", "Security policy"),
                ("body", "v5"),
                ("version", "4"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}
