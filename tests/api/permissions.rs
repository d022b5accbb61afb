//! Two users, every route: what alice keeps private, bob can neither read, list,
//! search, diff, restore nor change, until she shares it.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, sign_in, spawn_app};

struct Bob {
    client: reqwest::Client,
    csrf: String,
    address: String,
}

impl Bob {
    async fn get(&self, path: &str) -> (StatusCode, String) {
        let res = self
            .client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .unwrap();
        (res.status(), res.text().await.unwrap())
    }
    async fn post(&self, path: &str, fields: &[(&str, &str)]) -> (StatusCode, String) {
        let mut fields = fields.to_vec();
        fields.push(("csrf", &self.csrf));
        let res = self
            .client
            .post(format!("{}{path}", self.address))
            .form(&fields)
            .send()
            .await
            .unwrap();
        (res.status(), res.text().await.unwrap())
    }
}

async fn with_bob() -> (TestApp, Bob) {
    let app = spawn_app().await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (client, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let bob = Bob {
        client,
        csrf,
        address: app.address.clone(),
    };
    (app, bob)
}

async fn share(app: &TestApp, id: &str, fields: &[(&str, &str)]) {
    let res = app.post_form(&format!("/d/{id}/share"), fields).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_private_document_is_invisible_to_others_on_every_route() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Diary", "private thoughts").await;
    app.save(&id, "Diary", "more private thoughts", 1).await;

    for path in [
        format!("/d/{id}"),
        format!("/d/{id}/edit"),
        format!("/d/{id}/history"),
        format!("/d/{id}/r/1"),
        format!("/d/{id}/diff?from=1&to=2"),
        format!("/d/{id}/share"),
    ] {
        let (status, html) = bob.get(&path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!html.contains("private thoughts"), "{path}");
    }
    for (path, fields) in [
        (
            format!("/d/{id}"),
            vec![("title", "x"), ("body", "pwned"), ("version", "2")],
        ),
        (format!("/d/{id}/delete"), vec![]),
        (format!("/d/{id}/restore"), vec![]),
        (format!("/d/{id}/r/1/restore"), vec![]),
        (
            format!("/d/{id}/share"),
            vec![("action", "visibility"), ("visibility", "edit")],
        ),
    ] {
        let (status, _) = bob.post(&path, &fields).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let (_, list) = bob.get("/").await;
    assert!(!list.contains("Diary"));
    let (_, found) = bob.get("/search?q=private").await;
    assert!(found.contains("Nothing found"), "search leaks: {found}");
    let (_, found) = bob.get("/search?q=ivate").await;
    assert!(found.contains("Nothing found"), "substring search leaks");
    let (_, html) = app.get_text(&format!("/d/{id}")).await;
    assert!(html.contains("more private thoughts"), "nothing changed");
}

#[tokio::test]
async fn read_shares_allow_reading_but_not_editing() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Plan", "the plan").await;
    share(
        &app,
        &id,
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;

    let (status, html) = bob.get(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("the plan"));
    assert!(!html.contains("/edit\""), "no edit button for a reader");
    assert!(bob.get("/").await.1.contains("Plan"));
    assert!(bob.get("/search?q=plan").await.1.contains("Plan"));
    assert_eq!(bob.get(&format!("/d/{id}/history")).await.0, StatusCode::OK);

    let (status, html) = bob
        .post(
            &format!("/d/{id}"),
            &[("title", "Plan"), ("body", "my change"), ("version", "1")],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(html.contains("my change"), "the text comes back");
    assert_eq!(
        bob.get(&format!("/d/{id}/edit")).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        bob.post(&format!("/d/{id}/delete"), &[]).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        bob.post(&format!("/d/{id}/r/1/restore"), &[]).await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn edit_shares_allow_saving_but_only_the_owner_deletes_or_shares() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Team doc", "v1").await;
    share(
        &app,
        &id,
        &[("action", "share"), ("username", "bob"), ("role", "edit")],
    )
    .await;

    let (status, _) = bob
        .post(
            &format!("/d/{id}"),
            &[
                ("title", "Team doc"),
                ("body", "v2 by bob"),
                ("version", "1"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(
        bob.post(&format!("/d/{id}/delete"), &[]).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        bob.get(&format!("/d/{id}/share")).await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn removing_a_share_takes_access_away_again() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Temp", "for a while").await;
    share(
        &app,
        &id,
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    assert_eq!(bob.get(&format!("/d/{id}")).await.0, StatusCode::OK);
    let (_, page) = app.get_text(&format!("/d/{id}/share")).await;
    let user_id = page
        .split(r#"name="user_id" value=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_owned();

    share(&app, &id, &[("action", "unshare"), ("user_id", &user_id)]).await;

    assert_eq!(bob.get(&format!("/d/{id}")).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn everyone_visibility_and_the_trash_belongs_to_its_owner() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Notice", "for all").await;
    share(
        &app,
        &id,
        &[("action", "visibility"), ("visibility", "read")],
    )
    .await;
    assert!(bob.get("/").await.1.contains("Notice"));

    let bobs = bob
        .post("/docs", &[("title", "Bob's"), ("body", "mine")])
        .await;
    assert_eq!(bobs.0, StatusCode::SEE_OTHER);
    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    let (_, trash) = bob.get("/trash").await;
    assert!(!trash.contains("Notice"), "only the owner's trash shows it");
    bob.post("/trash/empty", &[("confirm", "yes")]).await;
    let (_, trash) = app.get_text("/trash").await;
    assert!(
        trash.contains("Notice"),
        "bob's emptying leaves alice's trash alone"
    );
}

#[tokio::test]
async fn a_public_link_shows_the_document_to_anyone_until_revoked() {
    let (app, _) = with_bob().await;
    let id = app.create_document("Published", "hello world").await;
    share(&app, &id, &[("action", "link-on")]).await;
    let (_, page) = app.get_text(&format!("/d/{id}/share")).await;
    let link = page
        .split("/p/")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_owned();
    assert_eq!(link.len(), 64);

    let stranger = crate::helpers::new_client();
    let res = stranger
        .get(format!("{}/p/{link}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let html = res.text().await.unwrap();
    assert!(html.contains("hello world"));
    assert!(!html.contains("Delete") && !html.contains("/edit"));

    share(&app, &id, &[("action", "link-off")]).await;
    let res = stranger
        .get(format!("{}/p/{link}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn everyone_may_edit_lets_any_user_save_but_not_share_or_delete() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Wiki", "v1").await;
    share(
        &app,
        &id,
        &[("action", "visibility"), ("visibility", "edit")],
    )
    .await;

    let (status, _) = bob
        .post(
            &format!("/d/{id}"),
            &[("title", "Wiki"), ("body", "bob's v2"), ("version", "1")],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "bob may edit");
    let (_, html) = app.get_text(&format!("/d/{id}")).await;
    assert!(html.contains("bob&#39;s v2") || html.contains("bob's v2"));
    assert_eq!(
        bob.post(&format!("/d/{id}/delete"), &[]).await.0,
        StatusCode::FORBIDDEN,
        "editing is not owning"
    );
    let (status, _) = bob
        .post(
            &format!("/d/{id}/share"),
            &[("action", "visibility"), ("visibility", "private")],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "nor sharing");
}

#[tokio::test]
async fn sharing_with_a_name_nobody_has_says_so_on_the_sharing_page_with_the_name_kept() {
    let (app, _bob) = with_bob().await;
    let id = app.create_document("Plan", "text").await;
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "share"), ("username", "bobb"), ("role", "read")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = res.text().await.unwrap();
    assert!(page.contains("<h1>Sharing</h1>"), "{page}");
    assert!(
        page.contains(r#"There is no person or group called &#34;bobb&#34;."#),
        "{page}"
    );
    assert!(page.contains(r#"name="username" value="bobb""#), "{page}");
    // The right name then goes through as usual.
    share(
        &app,
        &id,
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
}

#[tokio::test]
async fn the_list_and_the_page_say_who_else_sees_a_document_and_whose_it_is() {
    let (app, bob) = with_bob().await;
    let id = app.create_document("Budget", "numbers").await;
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(page.contains("only you can see it"), "{page}");
    let (_, list) = app.get_text("/").await;
    assert!(!list.contains("shared with"), "{list}");

    share(
        &app,
        &id,
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    share(&app, &id, &[("action", "link-on")]).await;
    let (_, list) = app.get_text("/").await;
    assert!(
        list.contains("shared with 1 person · public link on"),
        "{list}"
    );
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains("shared with 1 person · public link on"),
        "{page}"
    );

    share(
        &app,
        &id,
        &[("action", "visibility"), ("visibility", "edit")],
    )
    .await;
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains("everyone can edit · shared with 1 person"),
        "{page}"
    );

    // Bob sees whose it is, not who else it is shared with.
    let (_, list) = bob.get("/").await;
    assert!(list.contains("by alice"), "{list}");
    assert!(!list.contains("shared with"), "{list}");
    let (_, page) = bob.get(&format!("/d/{id}")).await;
    assert!(
        page.contains("by alice") && !page.contains("public link on"),
        "{page}"
    );
}
