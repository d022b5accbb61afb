//! A save sent by a plain form (no JavaScript) after the session ended: quire
//! answers with a sign-in form that carries the text, and signing in there
//! completes the save. Nothing typed is lost on the way.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, location, spawn_app, textareas, unescape};

/// A text with every character HTML escaping touches, over two lines.
const TEXT: &str = "Minutes: \"ship\" <Friday> & 'review'\nsecond line, café";

async fn end_sessions(app: &TestApp) {
    quire::db::query("UPDATE sessions SET last_seen = 0")
        .execute(&app.db.write)
        .await
        .unwrap();
}

/// The hidden fields of the page's form, as a browser would send them back.
fn hidden_fields(html: &str) -> Vec<(String, String)> {
    html.split(r#"<input type="hidden" name=""#)
        .skip(1)
        .map(|part| {
            let (name, rest) = part.split_once('"').expect("a name");
            let value = rest
                .split_once(r#"value=""#)
                .and_then(|(_, v)| v.split_once('"'))
                .map_or("", |(v, _)| v);
            (unescape(name), unescape(value))
        })
        .collect()
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Sends the sign-in-to-save form back with these credentials.
async fn sign_in_and_save(
    app: &TestApp,
    action: &str,
    fields: &[(String, String)],
    password: &str,
) -> reqwest::Response {
    let mut form = fields.to_vec();
    form.push(("sign_in_username".into(), "alice".into()));
    form.push(("sign_in_password".into(), password.into()));
    app.client
        .post(format!("{}{action}", app.address))
        .form(&form)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_save_after_the_session_ended_asks_to_sign_in_with_the_text_kept_then_saves_it() {
    let app = spawn_app().await;
    let id = app.create_document("Minutes", "first draft").await;
    end_sessions(&app).await;

    let res = app.save(&id, "Minutes", TEXT, 1).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let page = res.text().await.unwrap();
    assert!(page.contains("Sign in to save"), "{page}");
    assert_eq!(textareas(&page), vec![TEXT.to_owned()]);
    let fields = hidden_fields(&page);
    assert_eq!(field(&fields, "body"), Some(TEXT));
    assert_eq!(field(&fields, "title"), Some("Minutes"));
    assert_eq!(field(&fields, "version"), Some("1"));
    assert!(field(&fields, "csrf").is_some());

    // A wrong password: asked again, the text still kept, nothing saved.
    let res = sign_in_and_save(&app, &format!("/d/{id}"), &fields, "not the password").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let page = res.text().await.unwrap();
    assert!(page.contains(r#"role="alert""#), "{page}");
    let fields = hidden_fields(&page);
    assert_eq!(field(&fields, "body"), Some(TEXT));

    let res = sign_in_and_save(&app, &format!("/d/{id}"), &fields, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with(&format!("/d/{id}")));
    // Signed in again: the browser's next pages work, and the text is saved.
    let (status, page) = app.get_text(&format!("/d/{id}/edit")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(textareas(&page), vec![TEXT.to_owned()]);
    let (status, history) = app.get_text(&format!("/d/{id}/history")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(history.contains(&format!("/d/{id}/r/2")), "{history}");
}

#[tokio::test]
async fn a_new_document_written_after_the_session_ended_is_created_after_sign_in() {
    let app = spawn_app().await;
    end_sessions(&app).await;
    let res = app
        .post_form("/docs", &[("title", "Written offline"), ("body", TEXT)])
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let fields = hidden_fields(&res.text().await.unwrap());
    let res = sign_in_and_save(&app, "/docs", &fields, PASSWORD).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let created = location(&res);
    assert!(created.starts_with("/d/"), "{created}");
    let (_, page) = app
        .get_text(&format!("{}/edit", created.split('?').next().unwrap()))
        .await;
    assert_eq!(textareas(&page), vec![TEXT.to_owned()]);
}

#[tokio::test]
async fn an_htmx_save_keeps_its_redirect_and_other_forms_are_not_a_way_in() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "saved").await;
    end_sessions(&app).await;
    // The editor on screen handles an ended session itself.
    let res = app
        .client
        .post(format!("{}/d/{id}", app.address))
        .header("HX-Request", "true")
        .form(&[
            ("title", "Notes"),
            ("body", "typed"),
            ("version", "1"),
            ("csrf", &app.csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with("/login?next="));
    // Sign-in fields on any other form are not a sign-in.
    let res = app
        .post_form(
            &format!("/d/{id}/delete"),
            &[
                ("sign_in_username", "alice"),
                ("sign_in_password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with("/login?next="));
    let (status, _) = app.get_text("/").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_plain_save_with_no_session_cookie_at_all_comes_back_with_the_text_to_sign_in() {
    let app = spawn_app().await;
    let id = app.create_document("Minutes", "first draft").await;
    // A browser that lost every cookie (signed out in another tab, or cleared),
    // sending the form of a page it still shows, from quire's own page.
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .build()
        .unwrap();
    let form = [
        ("title", "Minutes"),
        ("body", TEXT),
        ("version", "1"),
        ("csrf", app.csrf.as_str()),
    ];
    let res = browser
        .post(format!("{}/d/{id}", app.address))
        .header("Origin", &app.address)
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let page = res.text().await.unwrap();
    assert!(page.contains("Sign in to save"), "{page}");
    assert!(page.contains("not signed in"), "{page}");
    assert_eq!(textareas(&page), vec![TEXT.to_owned()]);
    let mut fields = hidden_fields(&page);
    assert_eq!(field(&fields, "body"), Some(TEXT));
    // Signing in on that page saves the text, as a version after the one it was based on.
    fields.push(("sign_in_username".into(), "alice".into()));
    fields.push(("sign_in_password".into(), PASSWORD.into()));
    let res = browser
        .post(format!("{}/d/{id}", app.address))
        .header("Origin", &app.address)
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;
    assert_eq!(textareas(&page), vec![TEXT.to_owned()]);

    // The same post from another site's page is refused as before: its text is
    // not the user's to save.
    for origin in ["https://evil.example", "null"] {
        let res = reqwest::Client::new()
            .post(format!("{}/d/{id}", app.address))
            .header("Origin", origin)
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{origin}");
        assert!(!res.text().await.unwrap().contains("Sign in to save"));
    }
}
