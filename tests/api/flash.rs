//! The message a finished form action shows reads the same with JavaScript (htmx
//! shows it from `HX-Trigger`) and without (the page after the redirect shows it
//! from `?m=code`): each action is done once each way on things set up alike.

use quire::web::message::Message;
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{PASSWORD, TestApp, api_token, location, spawn_app, unescape};

#[path = "flash_talk.rs"]
mod talk;

/// A post: its path and its form fields (the CSRF token is added).
type Post<'a> = (String, Vec<(&'a str, &'a str)>);

/// What each way of sending an action shows: `(htmx, plain form)`.
struct Shown {
    both: Vec<(String, String)>,
}

impl Shown {
    /// Sends `htmx` as htmx does and `plain` as a form without JavaScript does, and
    /// keeps the text each shows: htmx's from `HX-Trigger`, the plain form's from
    /// the banner on the page its redirect leads to.
    async fn compare(&mut self, app: &TestApp, htmx: Post<'_>, plain: Post<'_>) {
        let res = app.post_htmx(&htmx.0, &htmx.1).await;
        assert_eq!(res.status(), StatusCode::OK, "htmx POST {}", htmx.0);
        let trigger = res.headers()["hx-trigger"].to_str().unwrap().to_owned();
        let trigger: Value = serde_json::from_str(&trigger).unwrap();
        let with_js = trigger["quire:flash"].as_str().unwrap().to_owned();

        let res = app.post_form(&plain.0, &plain.1).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "POST {}", plain.0);
        let (status, page) = app.get_text(&location(&res)).await;
        assert_eq!(status, StatusCode::OK, "GET {}", location(&res));
        self.both.push((with_js, banner(&page)));
    }
}

/// The text of the page's flash banner, or nothing.
fn banner(page: &str) -> String {
    page.split(r#"<p class="banner ok">"#)
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .map(unescape)
        .unwrap_or_default()
}

fn post<'a>(path: impl Into<String>, fields: &[(&'a str, &'a str)]) -> Post<'a> {
    (path.into(), fields.to_vec())
}

/// Two documents made alike, each with a second revision.
async fn two_revised(app: &TestApp, title: &str) -> [String; 2] {
    let mut ids = [String::new(), String::new()];
    for id in &mut ids {
        *id = app
            .create_document(title, "one\ntwo\nthree\nfour\nfive\n")
            .await;
        let res = app
            .save(id, title, "one\nTWO\nthree\nfour\nfive\n", 1)
            .await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
    }
    ids
}

async fn documents(app: &TestApp, shown: &mut Shown) {
    let new = [("title", "New"), ("body", "text")];
    shown
        .compare(app, post("/docs", &new), post("/docs", &new))
        .await;

    let [a, b] = two_revised(app, "Saved").await;
    let edit = [("title", "Saved"), ("body", "changed"), ("version", "2")];
    shown
        .compare(
            app,
            post(format!("/d/{a}"), &edit),
            post(format!("/d/{b}"), &edit),
        )
        .await;

    // Saved from version 1 while version 2 changed another line: merged.
    let [a, b] = two_revised(app, "Merged").await;
    let stale = [
        ("title", "Merged"),
        ("body", "one\ntwo\nthree\nfour\nFIVE\n"),
        ("version", "1"),
    ];
    shown
        .compare(
            app,
            post(format!("/d/{a}"), &stale),
            post(format!("/d/{b}"), &stale),
        )
        .await;

    let [a, b] = two_revised(app, "Drafted").await;
    let (a_, b_) = (
        format!("/d/{a}/draft/discard"),
        format!("/d/{b}/draft/discard"),
    );
    shown.compare(app, post(a_, &[]), post(b_, &[])).await;

    let [a, b] = two_revised(app, "Old").await;
    let (a_, b_) = (format!("/d/{a}/r/1/restore"), format!("/d/{b}/r/1/restore"));
    shown.compare(app, post(a_, &[]), post(b_, &[])).await;

    let share = [("action", "visibility"), ("visibility", "private")];
    let (a_, b_) = (format!("/d/{a}/share"), format!("/d/{b}/share"));
    shown.compare(app, post(a_, &share), post(b_, &share)).await;

    let (a_, b_) = (format!("/d/{a}/delete"), format!("/d/{b}/delete"));
    shown.compare(app, post(a_, &[]), post(b_, &[])).await;
    let (a_, b_) = (format!("/d/{a}/restore"), format!("/d/{b}/restore"));
    shown.compare(app, post(a_, &[]), post(b_, &[])).await;

    let empty = [("confirm", "yes")];
    shown
        .compare(
            app,
            post("/trash/empty", &empty),
            post("/trash/empty", &empty),
        )
        .await;
}

async fn folders_and_chosen(app: &TestApp, shown: &mut Shown) {
    for folder in ["Garden", "Kitchen"] {
        let fields = [("title", folder), ("body", "x"), ("folder", folder)];
        let res = app.post_form("/docs", &fields).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
    }
    shown
        .compare(
            app,
            post("/folders/rename", &[("from", "Garden"), ("to", "Yard")]),
            post("/folders/rename", &[("from", "Kitchen"), ("to", "Pantry")]),
        )
        .await;
    let team = quire::teams::spaces::id_by_name(&app.db, "Team")
        .await
        .unwrap()
        .expect("the team space")
        .to_string();
    shown
        .compare(
            app,
            post("/folders/move", &[("folder", "Yard"), ("to", &team)]),
            post("/folders/move", &[("folder", "Pantry"), ("to", &team)]),
        )
        .await;

    for (action, field, value) in [
        ("move", "folder", "Chosen"),
        ("tag", "tags", "picked"),
        ("trash", "tags", ""),
    ] {
        let a = app.create_document("Chosen", "x").await;
        let b = app.create_document("Chosen", "x").await;
        let (a_, b_) = (format!("pick.{a}"), format!("pick.{b}"));
        let fields = [("action", action), (field, value), ("back", "/")];
        let (mut for_a, mut for_b) = (fields.to_vec(), fields.to_vec());
        for_a.push((&a_, "1"));
        for_b.push((&b_, "1"));
        shown
            .compare(
                app,
                ("/selection".into(), for_a),
                ("/selection".into(), for_b),
            )
            .await;
    }
}

async fn account(app: &TestApp, shown: &mut Shown) {
    api_token(&app.address, &app.client, &app.csrf).await;
    api_token(&app.address, &app.client, &app.csrf).await;
    let (_, page) = app.get_text("/account").await;
    let ids: Vec<&str> = page
        .split(r#"action="/account/tokens/"#)
        .skip(1)
        .filter_map(|rest| rest.split('/').next())
        .collect();
    let [a, b] = ids[..] else {
        panic!("two tokens to revoke: {ids:?}")
    };
    let (a_, b_) = (
        format!("/account/tokens/{a}/revoke"),
        format!("/account/tokens/{b}/revoke"),
    );
    shown.compare(app, post(a_, &[]), post(b_, &[])).await;

    let (first, second) = (
        "a new password, long enough",
        "and another, also long enough",
    );
    shown
        .compare(
            app,
            post(
                "/account/password",
                &[("current", PASSWORD), ("new", first)],
            ),
            post("/account/password", &[("current", first), ("new", second)]),
        )
        .await;
}

async fn admin(app: &TestApp, shown: &mut Shown) {
    let create = |name| vec![("username", name), ("password", PASSWORD)];
    shown
        .compare(
            app,
            ("/admin/users".into(), create("carol")),
            ("/admin/users".into(), create("dave")),
        )
        .await;
    let id = |name: &'static str| async move {
        let id: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = $1")
            .bind(name)
            .fetch_one(&app.db.read)
            .await
            .unwrap();
        id.to_string()
    };
    let (carol, dave) = (id("carol").await, id("dave").await);
    let alice = id("alice").await;
    for fields in [
        vec![("action", "disable")],
        vec![("action", "enable")],
        vec![
            ("action", "password"),
            ("password", "a reset password, long enough"),
        ],
        vec![("action", "promote")],
        vec![("action", "demote")],
    ] {
        let (a_, b_) = (
            format!("/admin/users/{carol}"),
            format!("/admin/users/{dave}"),
        );
        shown.compare(app, (a_, fields.clone()), (b_, fields)).await;
    }
    shown
        .compare(
            app,
            post(
                format!("/admin/users/{carol}"),
                &[("action", "rename"), ("username", "carola")],
            ),
            post(
                format!("/admin/users/{dave}"),
                &[("action", "rename"), ("username", "david")],
            ),
        )
        .await;
    let delete = [
        ("action", "delete"),
        ("confirm", "yes"),
        ("heir", alice.as_str()),
    ];
    let (a_, b_) = (
        format!("/admin/users/{carol}"),
        format!("/admin/users/{dave}"),
    );
    shown
        .compare(app, post(a_, &delete), post(b_, &delete))
        .await;
}

/// Spaces, groups and moving documents between spaces.
async fn teams(app: &TestApp, shown: &mut Shown) {
    let made = |path: String| path.split('?').next().unwrap_or_default().to_owned();
    let res = app.post_form("/spaces", &[("name", "Garden club")]).await;
    let (a_, b_) = (made(location(&res)), String::new());
    let res = app.post_form("/spaces", &[("name", "Book club")]).await;
    let b_ = b_ + &made(location(&res));
    shown
        .compare(
            app,
            post("/spaces", &[("name", "Choir")]),
            post("/spaces", &[("name", "Band")]),
        )
        .await;
    let member = [("action", "member"), ("name", "alice"), ("role", "manage")];
    shown
        .compare(app, post(&a_, &member), post(&b_, &member))
        .await;
    shown
        .compare(
            app,
            post("/admin/groups", &[("name", "Gardeners")]),
            post("/admin/groups", &[("name", "Readers")]),
        )
        .await;
    let team: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Team'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let team = team.to_string();
    let (one, two) = (
        app.create_document("Moved", "x").await,
        app.create_document("Moved", "x").await,
    );
    let to = [("to", team.as_str())];
    shown
        .compare(
            app,
            post(format!("/d/{one}/move"), &to),
            post(format!("/d/{two}/move"), &to),
        )
        .await;
    let remove = [("action", "delete"), ("confirm", "yes")];
    shown
        .compare(app, post(&a_, &remove), post(&b_, &remove))
        .await;
}

#[tokio::test]
async fn every_message_reads_the_same_with_and_without_javascript() {
    let app = spawn_app().await;
    let mut shown = Shown { both: Vec::new() };

    documents(&app, &mut shown).await;
    folders_and_chosen(&app, &mut shown).await;
    account(&app, &mut shown).await;
    admin(&app, &mut shown).await;
    teams(&app, &mut shown).await;
    talk::notices(&app, &mut shown).await;
    talk::comments(&app, &mut shown).await;
    talk::webhooks(&app, &mut shown).await;
    talk::suggestions(&app, &mut shown).await;
    talk::templates(&app, &mut shown).await;

    let differ: Vec<_> = shown.both.iter().filter(|(js, page)| js != page).collect();
    assert!(
        differ.is_empty(),
        "(with htmx, without JavaScript): {differ:#?}"
    );
    // Every message an action answers with is among those compared; signing out,
    // joining and setting a password by link are always plain redirects.
    let untried: Vec<_> = Message::ALL
        .into_iter()
        .filter(|m| ![Message::SignedOut, Message::Welcome, Message::PasswordSet].contains(m))
        .filter(|m| !shown.both.iter().any(|(js, _)| js == m.text()))
        .collect();
    assert!(untried.is_empty(), "not compared: {untried:?}");
}
