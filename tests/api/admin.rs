use reqwest::StatusCode;

use crate::helpers::{
    PASSWORD, anonymous, sign_in, someone_elses_private_document, spawn_app, spawn_with,
};

#[tokio::test]
async fn admins_add_accounts_and_others_cannot_reach_admin_pages() {
    let app = spawn_app().await;
    let res = app
        .post_form(
            "/admin/users",
            &[("username", "carol"), ("password", "a fine long password")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (carol, _) = sign_in(&app.address, "carol", "a fine long password").await;

    for path in ["/admin/users", "/admin/audit"] {
        let res = carol
            .get(format!("{}{path}", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{path}");
    }
    let dup = app
        .post_form(
            "/admin/users",
            &[("username", "Carol"), ("password", "another long password")],
        )
        .await;
    assert_eq!(dup.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(dup.text().await.unwrap().contains("taken"));
}

#[tokio::test]
async fn disabling_an_account_signs_it_out_and_keeps_it_out() {
    let app = spawn_app().await;
    let bob = quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (client, _) = sign_in(&app.address, "bob", PASSWORD).await;

    let res = app
        .post_form(
            &format!("/admin/users/{}", bob.id),
            &[("action", "disable")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let home = client
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(home.status(), StatusCode::SEE_OTHER, "session ended");
    let (fresh, csrf) = anonymous(&app.address).await;
    let login = fresh
        .post(format!("{}/login", app.address))
        .form(&[("username", "bob"), ("password", PASSWORD), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_password_reset_ends_sessions_and_the_new_password_works() {
    let app = spawn_app().await;
    let bob = quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (old, _) = sign_in(&app.address, "bob", PASSWORD).await;
    app.post_form(
        &format!("/admin/users/{}", bob.id),
        &[("action", "password"), ("password", "brand new password")],
    )
    .await;
    let res = old.get(format!("{}/", app.address)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    sign_in(&app.address, "bob", "brand new password").await;
}

#[tokio::test]
async fn changing_your_password_signs_out_your_other_sessions_only() {
    let app = spawn_app().await;
    let (other, _) = sign_in(&app.address, "alice", PASSWORD).await;

    let res = app
        .post_form(
            "/account/password",
            &[("current", PASSWORD), ("new", "an even better password")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    assert_eq!(
        app.get("/").await.status(),
        StatusCode::OK,
        "this session stays"
    );
    let res = other.get(format!("{}/", app.address)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "the other one ends");

    let wrong = app
        .post_form(
            "/account/password",
            &[
                ("current", "not it at all"),
                ("new", "whatever long enough"),
            ],
        )
        .await;
    assert_eq!(wrong.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        wrong
            .text()
            .await
            .unwrap()
            .contains("current password is wrong")
    );
}

#[tokio::test]
async fn the_audit_log_records_sign_ins_failures_and_permission_changes() {
    let app = spawn_app().await;
    let (fresh, csrf) = anonymous(&app.address).await;
    fresh
        .post(format!("{}/login", app.address))
        .form(&[
            ("username", "alice"),
            ("password", "nope nope nope"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    let id = app.create_document("Doc", "x").await;
    app.post_form(&format!("/d/{id}/share"), &[("action", "link-on")])
        .await;

    let (status, html) = app.get_text("/admin/audit").await;
    assert_eq!(status, StatusCode::OK);
    for event in [
        "login.ok",
        "login.failed",
        "permission.changed",
        "user.created",
    ] {
        assert!(html.contains(event), "{event}");
    }
}

#[tokio::test]
async fn sign_up_is_off_unless_configured() {
    let app = spawn_app().await;
    let (client, _) = anonymous(&app.address).await;
    let res = client
        .get(format!("{}/signup", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let open = spawn_with(|c| c.signup = true).await;
    let (client, csrf) = anonymous(&open.address).await;
    let res = client
        .post(format!("{}/signup", open.address))
        .form(&[
            ("username", "dave"),
            ("password", "dave's long password"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let home = client
        .get(format!("{}/", open.address))
        .send()
        .await
        .unwrap();
    assert_eq!(home.status(), StatusCode::OK);
}

#[tokio::test]
async fn idle_sessions_expire() {
    let app = spawn_app().await;
    let idle = quire::accounts::SESSION_IDLE_MS + 1000;
    quire::db::query("UPDATE sessions SET last_seen = last_seen - $1")
        .bind(idle)
        .execute(&app.db.write)
        .await
        .unwrap();
    assert_eq!(app.get("/").await.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_session_ends_30_days_after_sign_in_however_busy() {
    let app = spawn_app().await;
    let id = app.create_document("Kept", "text").await;
    let day = 24 * 3600 * 1000;
    let started_ago = |ms: i64| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        // Seen just now, so only the session's age can end it.
        quire::db::query("UPDATE sessions SET created_at = $1, last_seen = $2")
            .bind(now - ms)
            .bind(now)
            .execute(&app.db.write)
    };
    let doc = format!("/d/{id}");

    started_ago(30 * day - 60_000).await.unwrap();
    assert_eq!(app.get("/").await.status(), StatusCode::OK, "29.99 days");
    assert_eq!(app.get(&doc).await.status(), StatusCode::OK);

    started_ago(30 * day + 1000).await.unwrap();
    assert_eq!(
        app.get("/").await.status(),
        StatusCode::SEE_OTHER,
        "30 days"
    );
    assert_eq!(app.get(&doc).await.status(), StatusCode::SEE_OTHER);
}

/// The cells of the audit page's row that holds `needle`.
fn audit_row(html: &str, needle: &str) -> Vec<String> {
    let row = html
        .split("<tr>")
        .find(|r| r.contains(needle))
        .unwrap_or_else(|| panic!("no row with {needle:?} in:\n{html}"));
    row.split("<td>")
        .skip(1)
        .map(|c| c.split("</td>").next().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn the_audit_log_names_who_made_each_account() {
    let app = spawn_with(|c| c.signup = true).await;
    let res = app
        .post_form(
            "/admin/users",
            &[("username", "carol"), ("password", "a fine long password")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (client, csrf) = anonymous(&app.address).await;
    let res = client
        .post(format!("{}/signup", app.address))
        .form(&[
            ("username", "dave"),
            ("password", "dave's long password"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let (_, html) = app.get_text("/admin/audit").await;

    let by_admin = audit_row(&html, ">carol<");
    assert_eq!(by_admin[1..], ["alice", "user.created", "carol"], "{html}");
    let signed_up = audit_row(&html, "dave, by signing up");
    assert_eq!(signed_up[1..3], ["dave", "user.created"], "{html}");
    // The test's alice is made as `quire user add` makes an account.
    let command_line = audit_row(&html, "alice, an administrator, from the command line");
    assert_eq!(
        command_line[1..3],
        ["quire (command line)", "user.created"],
        "{html}"
    );
}

#[tokio::test]
async fn sharing_events_name_a_document_only_to_an_admin_who_may_read_it() {
    let app = spawn_app().await;
    let mine = app.create_document("Garden plan", "x").await;
    app.post_form(&format!("/d/{mine}/share"), &[("action", "link-on")])
        .await;
    let (bob, csrf, secret) = someone_elses_private_document(
        &app,
        "bob",
        &[("title", "Zebra Merger Plan"), ("body", "y")],
    )
    .await;

    let (_, html) = app.get_text("/admin/audit").await;
    let shared = audit_row(&html, "public link created");
    assert_eq!(
        shared[3],
        format!(r#"<a href="/d/{mine}">Garden plan</a> public link created"#),
        "{html}"
    );
    let private = audit_row(&html, "visibility private");
    assert_eq!(private[1], "bob");
    assert!(
        private[3].starts_with("a document you may not read ("),
        "{private:?}"
    );
    assert!(!private[3].contains(&secret), "{private:?}");
    assert!(
        !html.contains("Zebra"),
        "a title alice may not read:\n{html}"
    );

    // Named once bob shares it with alice: the page is as of when it is shown.
    let res = bob
        .post(format!("{}/d/{secret}/share", app.address))
        .form(&[
            ("action", "share"),
            ("username", "alice"),
            ("role", "read"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_redirection(), "{}", res.status());
    let (_, html) = app.get_text("/admin/audit").await;
    let private = audit_row(&html, "visibility private");
    assert_eq!(
        private[3],
        format!(r#"<a href="/d/{secret}">Zebra Merger Plan</a> visibility private"#)
    );
}
