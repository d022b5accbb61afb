//! The list page keeps its folders, tags and count in memory between views
//! (only the rows are read each time); every change to what its viewer may
//! see shows on the next view: the viewer's own saves and trash, and another
//! user opening a document to everyone and closing it again.

use serde_json::json;

use crate::folders_tags::Api;
use crate::helpers::{PASSWORD, TestApp, location, sign_in, spawn_app};

/// What alice's list page says: its count line, and which of `names` its
/// folder tree and tag list show (not its rows).
async fn seen(app: &TestApp, query: &str, names: &[&str]) -> (String, Vec<String>) {
    let (status, html) = app.get_text(&format!("/?{query}")).await;
    assert!(status.is_success(), "{status}");
    let total = html
        .split(r#"<p class="meta total">"#)
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default()
        .trim()
        .to_owned();
    let shown = names
        .iter()
        .filter(|n| html.contains(&format!(">{n}</a> <span class=\"count\">")))
        .map(|n| n.to_string())
        .collect();
    (total, shown)
}

/// bob's document in `folder`, tagged `tag`, set to `visibility`; its id.
async fn bobs_document(
    app: &TestApp,
    (folder, tag): (&str, &str),
) -> (reqwest::Client, String, String) {
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    let res = bob
        .post(format!("{}/docs", app.address))
        .form(&[
            ("title", "Bob's tools"),
            ("body", "a rake"),
            ("folder", folder),
            ("tags", tag),
            ("space", "personal"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    let id = location(&res)
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    (bob, csrf, id)
}

async fn set_visibility(app: &TestApp, (bob, csrf): (&reqwest::Client, &str), id: &str, to: &str) {
    let res = bob
        .post(format!("{}/d/{id}/share", app.address))
        .form(&[("action", "visibility"), ("visibility", to), ("csrf", csrf)])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success() || res.status().is_redirection());
}

#[tokio::test]
async fn the_list_pages_folders_tags_and_count_follow_every_change() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let names = ["Garden", "summer", "Orchard", "autumn", "Shed", "tools"];
    api.create(json!({"title": "Tomatoes", "body": "red", "folder": "Garden", "tags": ["summer"]}))
        .await;
    // The second view is answered with what the first one kept.
    for _ in 0..2 {
        let (total, shown) = seen(&app, "", &names).await;
        assert_eq!(
            (total.as_str(), shown),
            ("1 document", vec!["Garden".into(), "summer".into()])
        );
    }

    // Her own save, on every page and in a narrowed list.
    let pears = api
        .create(json!({"title": "Pears", "body": "green", "folder": "Orchard", "tags": ["autumn"]}))
        .await;
    assert_eq!(
        seen(&app, "", &names).await,
        (
            "2 documents".into(),
            names[..4].iter().map(|n| n.to_string()).collect()
        )
    );
    assert_eq!(seen(&app, "page=2", &[]).await.0, "2 documents");
    assert_eq!(
        seen(&app, "folder=Orchard", &[]).await.0,
        "1 document in Orchard"
    );
    assert_eq!(seen(&app, "tag=summer", &[]).await.0, "1 document tagged");

    // Another user's document, opened to everyone and closed again.
    let (bob, csrf, id) = bobs_document(&app, ("Shed", "tools")).await;
    assert_eq!(
        seen(&app, "", &names).await.0,
        "2 documents",
        "bob's is private"
    );
    set_visibility(&app, (&bob, &csrf), &id, "read").await;
    let (total, shown) = seen(&app, "", &names).await;
    assert_eq!(total, "3 documents");
    assert!(
        shown.contains(&"Shed".to_owned()) && shown.contains(&"tools".to_owned()),
        "{shown:?}"
    );
    set_visibility(&app, (&bob, &csrf), &id, "private").await;
    let (total, shown) = seen(&app, "", &names).await;
    assert_eq!(total, "2 documents");
    assert!(
        !shown.contains(&"Shed".to_owned()) && !shown.contains(&"tools".to_owned()),
        "{shown:?}"
    );

    // Her own document to the trash.
    let res = app
        .client
        .post(format!(
            "{}/d/{}/delete",
            app.address,
            pears["id"].as_str().unwrap()
        ))
        .form(&[("csrf", app.csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success() || res.status().is_redirection());
    assert_eq!(
        seen(&app, "", &names).await,
        ("1 document".into(), vec!["Garden".into(), "summer".into()])
    );
}
