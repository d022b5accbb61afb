use reqwest::StatusCode;

use crate::helpers::{PASSWORD, anonymous, sign_in, spawn_app, spawn_with};

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
