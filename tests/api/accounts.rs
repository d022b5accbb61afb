use reqwest::{StatusCode, header};

use crate::helpers::{PASSWORD, anonymous, location, new_client, sign_in, spawn_app, spawn_with};

#[tokio::test]
async fn anonymous_visitors_are_sent_to_sign_in_and_see_nothing() {
    let app = spawn_app().await;
    let id = app.create_document("Secret plans", "the vault code").await;
    let (stranger, _) = anonymous(&app.address).await;

    for path in [
        "/".to_string(),
        format!("/d/{id}"),
        format!("/d/{id}/history"),
        "/search?q=vault".into(),
        "/trash".into(),
        "/new".into(),
    ] {
        let res = stranger
            .get(format!("{}{path}", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{path}");
        assert!(location(&res).starts_with("/login?next=%2F"), "{path}");
        assert!(!res.text().await.unwrap().contains("vault"));
    }
    let health = stranger
        .get(format!("{}/healthz", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), StatusCode::OK);
}

#[tokio::test]
async fn pages_nobody_routed_send_strangers_to_sign_in_and_tell_users_there_is_nothing() {
    let app = spawn_app().await;
    let (stranger, _) = anonymous(&app.address).await;
    for path in ["/no-such-page", "/d/not-an-id!", "/d/", "/api-docs"] {
        let res = stranger
            .get(format!("{}{path}", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{path}");
        assert!(location(&res).starts_with("/login?next=%2F"), "{path}");
        let res = app.get(path).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        // The signed-in header is drawn on the error page too.
        assert!(res.text().await.unwrap().contains("alice"), "{path}");
    }
    // A public page knows who is signed in, and sends them on from the sign-in form.
    let res = app.get("/login").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    // Probes set no cookies and need none.
    let health = stranger
        .get(format!("{}/readyz", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    assert!(health.headers().get(header::SET_COOKIE).is_none());
}

#[tokio::test]
async fn signing_in_returns_to_the_page_asked_for_but_never_off_site() {
    let app = spawn_app().await;
    for (next, expected) in [
        ("/trash", "/trash"),
        ("//evil.example/x", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example", "/"),
    ] {
        let (client, csrf) = anonymous(&app.address).await;
        let res = client
            .post(format!("{}/login", app.address))
            .form(&[
                ("username", "alice"),
                ("password", PASSWORD),
                ("csrf", &csrf),
                ("next", next),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        assert_eq!(location(&res), expected, "next={next}");
    }
}

#[tokio::test]
async fn wrong_passwords_and_unknown_users_get_the_same_answer() {
    let app = spawn_app().await;
    for (user, pass) in [("alice", "wrong password!"), ("nobody", PASSWORD)] {
        let (client, csrf) = anonymous(&app.address).await;
        let res = client
            .post(format!("{}/login", app.address))
            .form(&[("username", user), ("password", pass), ("csrf", &csrf)])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let html = res.text().await.unwrap();
        assert!(html.contains("Wrong username or password."));
        assert!(
            html.contains(&format!(r#"value="{user}""#)),
            "username kept"
        );
    }
}

#[tokio::test]
async fn repeated_failures_lock_the_account_for_a_while() {
    let app = spawn_app().await;
    let (client, csrf) = anonymous(&app.address).await;
    let attempt = |password: &'static str| {
        let client = client.clone();
        let csrf = csrf.clone();
        let url = format!("{}/login", app.address);
        async move {
            client
                .post(url)
                .form(&[
                    ("username", "alice"),
                    ("password", password),
                    ("csrf", &csrf),
                ])
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    for _ in 0..10 {
        assert_eq!(attempt("not the password").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(attempt(PASSWORD).await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn state_changes_without_the_csrf_token_are_refused() {
    let app = spawn_app().await;
    let id = app.create_document("Keep me", "safe").await;

    let no_token = app
        .client
        .post(format!("{}/d/{id}/delete", app.address))
        .form(&[("x", "y")])
        .send()
        .await
        .unwrap();
    let wrong_token = app
        .client
        .post(format!("{}/d/{id}/delete", app.address))
        .header("X-CSRF-Token", "0".repeat(64))
        .send()
        .await
        .unwrap();

    assert_eq!(no_token.status(), StatusCode::FORBIDDEN);
    assert_eq!(wrong_token.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.get(&format!("/d/{id}")).await.status(), StatusCode::OK);
    let with_header = app
        .client
        .post(format!("{}/d/{id}/delete", app.address))
        .header("X-CSRF-Token", &app.csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(with_header.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn sign_in_without_the_form_token_is_refused() {
    let app = spawn_app().await;
    let res = new_client()
        .post(format!("{}/login", app.address))
        .form(&[("username", "alice"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
}

fn cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}

#[tokio::test]
async fn session_cookies_are_http_only_lax_and_logout_ends_the_session_on_the_server() {
    let app = spawn_app().await;
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = plain
        .get(format!("{}/login", app.address))
        .send()
        .await
        .unwrap();
    let csrf_cookie = cookie_value(&page, "quire_csrf").expect("a CSRF cookie");
    let csrf = crate::helpers::csrf_of(&page.text().await.unwrap());
    let csrf_pair = csrf_cookie.split(';').next().unwrap().to_owned();

    let res = plain
        .post(format!("{}/login", app.address))
        .header(header::COOKIE, &csrf_pair)
        .form(&[
            ("username", "alice"),
            ("password", PASSWORD),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    let session = cookie_value(&res, "quire_session").expect("a session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(
        !session.contains("Secure"),
        "plain HTTP without QUIRE_COOKIE_SECURE"
    );
    let cookies = format!("{}; {csrf_pair}", session.split(';').next().unwrap());

    let home = plain
        .get(format!("{}/", app.address))
        .header(header::COOKIE, &cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(home.status(), StatusCode::OK);
    let csrf = crate::helpers::csrf_of(&home.text().await.unwrap());
    let out = plain
        .post(format!("{}/logout", app.address))
        .header(header::COOKIE, &cookies)
        .form(&[("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::SEE_OTHER);

    let replay = plain
        .get(format!("{}/", app.address))
        .header(header::COOKIE, &cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(
        replay.status(),
        StatusCode::SEE_OTHER,
        "the old cookie is dead"
    );
}

#[tokio::test]
async fn cookies_are_secure_when_configured_for_tls() {
    let app = spawn_with(|c| c.cookie_secure = true).await;
    let res = new_client()
        .get(format!("{}/login", app.address))
        .send()
        .await
        .unwrap();
    assert!(cookie_value(&res, "quire_csrf").unwrap().contains("Secure"));
}

#[tokio::test]
async fn revisions_record_who_saved_them() {
    let app = spawn_app().await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let id = app.create_document("Shared", "v1").await;
    app.post_form(
        &format!("/d/{id}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "edit")],
    )
    .await;
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let res = bob
        .post(format!("{}/d/{id}", app.address))
        .form(&[
            ("title", "Shared"),
            ("body", "v2"),
            ("version", "1"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let (_, html) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(
        html.contains("by bob") && html.contains("by alice"),
        "{html}"
    );
}

#[tokio::test]
async fn fifty_recent_failures_from_one_address_refuse_it_even_the_right_password() {
    use quire::accounts::{AccountError, authenticate};
    let app = spawn_app().await;
    let address = "203.0.113.9";
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    // Failures from the address against many accounts, none against alice.
    let fail = |n: usize| {
        let db = app.db.write.clone();
        async move {
            for _ in 0..n {
                quire::db::query("INSERT INTO login_failures (key, at) VALUES ($1, $2)")
                    .bind(format!("addr:{address}"))
                    .bind(now)
                    .execute(&db)
                    .await
                    .unwrap();
            }
        }
    };

    fail(49).await;
    assert!(
        authenticate(&app.db, "alice", PASSWORD, address)
            .await
            .is_ok(),
        "49 failures leave the address in"
    );
    fail(1).await;
    assert!(matches!(
        authenticate(&app.db, "alice", PASSWORD, address).await,
        Err(AccountError::RateLimited { .. })
    ));
    assert!(
        authenticate(&app.db, "alice", PASSWORD, "203.0.113.10")
            .await
            .is_ok(),
        "another address is not refused"
    );
}
