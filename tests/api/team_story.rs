//! A fresh quire as a new team meets it: the admin invites a second person by
//! link; they choose their own name and password, see and edit the team
//! space's documents, write one the admin sees with no sharing step, and
//! cannot read the admin's personal space. Invitations are one use and expire;
//! a reset link sets a password once.

use reqwest::StatusCode;

use crate::helpers::{anonymous, location, spawn_app};

/// The link the invitation page shows once.
fn link_in(page: &str, path: &str) -> String {
    let start = page.find(path).expect("the page shows the link");
    page[start..]
        .split(|c: char| c == '"' || c == '<' || c.is_whitespace())
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn an_invited_person_joins_the_team_space_and_never_sees_the_admins_personal_space() {
    let app = spawn_app().await;
    // The admin's first document goes to the team space; one kept personal.
    let shared = app
        .post_form(
            "/docs",
            &[("title", "Team plan"), ("body", "We ship on Friday.")],
        )
        .await;
    let shared = location(&shared);
    let mine = app
        .create_document("Alice's diary", "Private thoughts.")
        .await;
    let page = app.get(&shared).await.text().await.unwrap();
    assert!(
        page.contains("Team · 1 person"),
        "the page says where it is: {page}"
    );

    let invite = app.post_form("/invitations", &[("days", "7")]).await;
    assert_eq!(invite.status(), StatusCode::OK);
    let link = link_in(&invite.text().await.unwrap(), "/join/");
    let path = link
        .split_once("/join/")
        .map(|(_, t)| format!("/join/{t}"))
        .unwrap();

    let (bea, csrf) = anonymous(&app.address).await;
    let form = bea
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), StatusCode::OK);
    // A refused password keeps the name typed and the link unused.
    let short = bea
        .post(format!("{}{path}", app.address))
        .form(&[("username", "bea"), ("password", "short"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(short.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(short.text().await.unwrap().contains(r#"value="bea""#));
    let joined = bea
        .post(format!("{}{path}", app.address))
        .form(&[
            ("username", "bea"),
            ("password", "a long enough password"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&joined), "/?m=welcome");

    let home = bea
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        home.contains("Team plan"),
        "bea sees the team's document: {home}"
    );
    assert!(!home.contains("Alice&#39;s diary") && !home.contains("Alice's diary"));
    let diary = bea
        .get(format!("{}/d/{mine}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(
        diary.status(),
        StatusCode::NOT_FOUND,
        "the admin's personal space"
    );
    let edit = bea
        .get(format!("{}{shared}/edit", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(edit.status(), StatusCode::OK, "bea edits in the team space");

    // Bea's new document: the admin sees it, without any sharing step.
    let csrf = crate::helpers::csrf_of(&home);
    let made = bea
        .post(format!("{}/docs", app.address))
        .form(&[
            ("title", "Bea's notes"),
            ("body", "Hello team."),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    let made = location(&made);
    let seen = app.get(&made).await;
    assert_eq!(
        seen.status(),
        StatusCode::OK,
        "the admin reads bea's document"
    );
    assert!(seen.text().await.unwrap().contains("Team · 2 people"));

    // The link worked once.
    let again = anonymous(&app.address)
        .await
        .0
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::GONE);
}

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once_and_only_an_admin_makes_one() {
    let app = spawn_app().await;
    quire::accounts::create_user(&app.db, "bo", crate::helpers::PASSWORD, false)
        .await
        .unwrap();
    let bo: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'bo'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let made = app
        .post_form(&format!("/admin/users/{bo}"), &[("action", "reset-link")])
        .await;
    assert_eq!(made.status(), StatusCode::OK);
    let link = link_in(&made.text().await.unwrap(), "/reset/");
    let path = link
        .split_once("/reset/")
        .map(|(_, t)| format!("/reset/{t}"))
        .unwrap();
    let (client, csrf) = anonymous(&app.address).await;
    let set = client
        .post(format!("{}{path}", app.address))
        .form(&[("password", "a brand new password"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(set.status(), StatusCode::SEE_OTHER);
    crate::helpers::sign_in(&app.address, "bo", "a brand new password").await;
    let again = client
        .post(format!("{}{path}", app.address))
        .form(&[("password", "another new password"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY, "one use");

    // Someone who is no admin cannot make one, nor an invitation.
    let (bo_client, bo_csrf) =
        crate::helpers::sign_in(&app.address, "bo", "a brand new password").await;
    let refused = bo_client
        .post(format!("{}/admin/users/{bo}", app.address))
        .form(&[("action", "reset-link"), ("csrf", &bo_csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let refused = bo_client
        .post(format!("{}/invitations", app.address))
        .form(&[("days", "7"), ("csrf", &bo_csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_spaces_api_answers_in_json_for_a_space_that_does_not_exist() {
    let app = spawn_app().await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let client = reqwest::Client::new();
    for id in ["9223372036854775808", "0", "-1", "99999"] {
        let url = format!("{}/api/v1/spaces/{id}/members", app.address);
        let get = client.get(&url).bearer_auth(&token).send().await.unwrap();
        let put = client
            .put(&url)
            .bearer_auth(&token)
            .json(&serde_json::json!({"name": "alice", "role": "read"}))
            .send()
            .await
            .unwrap();
        for (what, res) in [("GET", get), ("PUT", put)] {
            assert_eq!(res.status(), StatusCode::NOT_FOUND, "{what} {id}");
            let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
            let text = res.text().await.unwrap();
            let from = text.find("<main").unwrap_or(0);
            assert_eq!(kind, "application/json", "{what} {id}: {}", &text[from..]);
        }
    }
}

#[tokio::test]
async fn a_list_narrowed_to_a_space_shows_that_spaces_folders_and_tags_only() {
    let app = spawn_app().await;
    let made = app
        .post_form(
            "/docs",
            &[
                ("title", "Roadmap"),
                ("body", "Q3"),
                ("folder", "Plans"),
                ("tags", "shared-tag"),
            ],
        )
        .await;
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    let made = app
        .post_form(
            "/docs",
            &[
                ("title", "Diary"),
                ("body", "me"),
                ("folder", "Journal"),
                ("tags", "own-tag"),
                ("space", "personal"),
            ],
        )
        .await;
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    let team: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Team'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let aside = |page: String| {
        let from = page
            .find(r#"<aside class="places""#)
            .expect("the folders and tags");
        page[from..].split("</aside>").next().unwrap().to_owned()
    };
    let (_, page) = app.get_text("/?space=personal").await;
    let places = aside(page);
    assert!(
        places.contains("Journal") && places.contains("own-tag"),
        "{places}"
    );
    assert!(
        !places.contains("Plans") && !places.contains("shared-tag"),
        "{places}"
    );
    let (_, page) = app.get_text(&format!("/?space={team}")).await;
    let places = aside(page);
    assert!(
        places.contains("Plans") && places.contains("shared-tag"),
        "{places}"
    );
    assert!(
        !places.contains("Journal") && !places.contains("own-tag"),
        "{places}"
    );
    let (_, page) = app.get_text("/").await;
    let places = aside(page);
    assert!(
        places.contains("Plans") && places.contains("Journal"),
        "{places}"
    );
}

#[tokio::test]
async fn each_list_row_names_its_space_even_one_the_reader_is_not_in() {
    let app = spawn_app().await;
    quire::accounts::create_user(&app.db, "bob", crate::helpers::PASSWORD, false)
        .await
        .unwrap();
    let made = app
        .post_form("/spaces", &[("name", "Ops"), ("default_role", "")])
        .await;
    let ops = location(&made);
    let ops = ops
        .split('?')
        .next()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let made = app
        .post_form(
            "/docs",
            &[
                ("title", "Runbook"),
                ("body", "restart it"),
                ("space", &ops),
            ],
        )
        .await;
    let id = location(&made)
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    app.post_form(
        &format!("/d/{id}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    app.create_document("Team notes", "hello").await;

    let row = |page: &str, title: &str| {
        page.split("<li")
            .find(|li| li.contains(title))
            .unwrap_or_else(|| panic!("a row for {title}: {page}"))
            .split("</li>")
            .next()
            .unwrap()
            .to_owned()
    };
    let (_, mine) = app.get_text("/").await;
    let runbook = row(&mine, "Runbook");
    assert!(
        runbook.contains(r#"<span class="space">Ops</span>"#),
        "{runbook}"
    );
    assert!(runbook.contains("shared with 1 person"), "{runbook}");
    assert!(row(&mine, "Team notes").contains(r#"<span class="space">Personal</span>"#));

    // bob is not in Ops: his row still says where it is, and whose.
    let (bob, _) = crate::helpers::sign_in(&app.address, "bob", crate::helpers::PASSWORD).await;
    let page = bob
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let runbook = row(&page, "Runbook");
    assert!(
        runbook.contains(r#"<span class="space">Ops</span>"#),
        "{runbook}"
    );
    assert!(runbook.contains("by alice"), "{runbook}");
    assert!(
        !runbook.contains("shared with"),
        "not bob's to say: {runbook}"
    );
}
