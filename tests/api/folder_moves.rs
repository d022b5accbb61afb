//! Moving a whole folder to another space: the page says how many documents
//! move and who gains and loses access before anything moves; the folders
//! under it go too, a folder of the same name elsewhere stays, documents the
//! mover may not move stay, and the move is in the audit log.

use reqwest::StatusCode;

use crate::helpers::{ALICE, PASSWORD, TestApp, sign_in, spawn_app};

/// A document of the signed-in `client`'s in `folder` of space `space`; its id.
async fn made(
    app: &TestApp,
    client: &reqwest::Client,
    csrf: &str,
    title: &str,
    folder: &str,
    space: i64,
) -> String {
    let res = client
        .post(format!("{}/docs", app.address))
        .form(&[
            ("title", title),
            ("body", "text"),
            ("folder", folder),
            ("space", &space.to_string()),
            ("csrf", csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "{title}");
    let to = res.headers()["location"].to_str().unwrap();
    to.trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned()
}

async fn status(client: &reqwest::Client, app: &TestApp, path: &str) -> StatusCode {
    client
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn a_folder_moves_with_its_subfolders_and_the_page_says_who_loses_access() {
    let app = spawn_app().await;
    let team = quire::teams::spaces::id_by_name(&app.db, "Team")
        .await
        .unwrap()
        .expect("the team space");
    let eng = quire::teams::spaces::create(&app.db, ALICE, "Eng", None)
        .await
        .unwrap();
    let ops = quire::teams::spaces::create(&app.db, ALICE, "Ops", None)
        .await
        .unwrap();
    for name in ["bob", "carol"] {
        quire::accounts::create_user(&app.db, name, PASSWORD, false)
            .await
            .unwrap();
    }
    let (alice, a) = (&app.client, app.csrf.clone());
    let (carol, c) = sign_in(&app.address, "carol", PASSWORD).await;
    let (bob, b) = sign_in(&app.address, "bob", PASSWORD).await;
    let plan = made(&app, alice, &a, "Plan A", "Plans", team).await;
    made(&app, alice, &a, "Plan Q3", "Plans/Q3", team).await;
    let carols = made(&app, &carol, &c, "Carol's plan", "Plans", team).await;
    let bobs = made(&app, &bob, &b, "Bob's plan", "Plans", team).await;
    let near = made(&app, alice, &a, "Not under Plans", "Plansx", team).await;
    let elsewhere = made(&app, alice, &a, "Ops plan", "Plans", ops).await;

    // Bob, no manager of Team, may move only his own document.
    let page = format!("/folders/move?folder=Plans&space={team}&to=personal");
    let text = bob
        .get(format!("{}{page}", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains("1 document moves. 3 stay where they are"),
        "{text}"
    );

    // Alice, made a manager of Team, moves every document in Plans and under
    // it to Eng.
    quire::teams::spaces::put_member(&app.db, ALICE, team, "alice", quire::teams::Role::Manage)
        .await
        .expect("alice manages Team");
    let page = format!("/folders/move?folder=Plans&space={team}&to={eng}");
    let (code, text) = app.get_text(&page).await;
    assert_eq!(code, StatusCode::OK);
    assert!(text.contains("4 documents move."), "{text}");
    assert!(
        text.contains("people lose access to some of it: bob, carol"),
        "{text}"
    );
    let res = app
        .post_form(
            "/folders/move",
            &[
                ("folder", "Plans"),
                ("space", &team.to_string()),
                ("to", &eng.to_string()),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(crate::helpers::location(&res).contains("m=folder-moved"));

    // Out of Team: the others lose what is not theirs; owners keep their own.
    for (who, id) in [(&carol, &plan), (&carol, &bobs), (&bob, &carols)] {
        let seen = status(who, &app, &format!("/d/{id}")).await;
        assert_eq!(seen, StatusCode::NOT_FOUND, "{id} left Team");
    }
    assert_eq!(
        status(&carol, &app, &format!("/d/{carols}")).await,
        StatusCode::OK
    );
    assert_eq!(
        status(&carol, &app, &format!("/d/{near}")).await,
        StatusCode::OK,
        "Plansx stays"
    );
    assert_eq!(
        status(alice, &app, &format!("/d/{elsewhere}")).await,
        StatusCode::OK
    );
    let (_, eng_list) = app.get_text(&format!("/?space={eng}")).await;
    assert!(eng_list.contains("4 documents"), "{eng_list}");
    assert!(
        eng_list.contains("Plan Q3") && eng_list.contains("Carol&#39;s plan"),
        "{eng_list}"
    );
    assert!(
        !eng_list.contains("Ops plan"),
        "the same folder in Ops stays"
    );
    let (_, audit) = app.get_text("/admin/audit").await;
    assert!(
        audit.contains("folder Plans moved to Eng: 4 documents"),
        "{audit}"
    );

    // Moved again where it is, nothing moves, and the page says so.
    let res = app
        .post_form(
            "/folders/move",
            &[
                ("folder", "Plans"),
                ("space", &eng.to_string()),
                ("to", &eng.to_string()),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = res.text().await.unwrap();
    assert!(
        text.contains("Nothing was moved: every document of Plans is there already."),
        "{text}"
    );
    assert!(!text.contains("Folder moved"), "{text}");
}

#[tokio::test]
async fn a_folder_with_nothing_the_reader_may_read_is_not_found() {
    let app = spawn_app().await;
    let (code, _) = app
        .get_text("/folders/move?folder=Nowhere&to=personal")
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    let res = app
        .post_form(
            "/folders/move",
            &[("folder", "Nowhere"), ("to", "personal")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
