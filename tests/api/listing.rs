//! The document list sorted, narrowed to whose documents, counted and paged, in
//! the pages and the JSON API alike.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, api_token, sign_in, spawn_app};

/// The titles on a list page, top to bottom.
async fn titles(app: &TestApp, query: &str) -> Vec<String> {
    let (status, html) = app.get_text(&format!("/?{query}")).await;
    assert_eq!(status, StatusCode::OK, "{query}");
    let list = html.split("<ol class=\"docs\">").nth(1).unwrap_or_default();
    let list = list.split("</ol>").next().unwrap_or_default();
    list.split("<a href=\"/d/")
        .skip(1)
        .filter_map(|a| a.split('>').nth(1)?.split('<').next())
        .map(crate::helpers::unescape)
        .collect()
}

async fn api_titles(app: &TestApp, token: &str, query: &str) -> (Vec<String>, i64) {
    let res = reqwest::Client::new()
        .get(format!("{}/api/v1/documents?{query}", app.address))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{query}");
    let body: serde_json::Value = res.json().await.unwrap();
    let titles = body["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["title"].as_str().unwrap().to_owned())
        .collect();
    (titles, body["total"].as_i64().unwrap())
}

#[tokio::test]
async fn the_list_sorts_by_change_creation_or_title_either_way_round() {
    let app = spawn_app().await;
    let banana = app.create_document("banana", "1").await;
    app.create_document("Apple", "2").await;
    app.create_document("cherry", "3").await;
    app.save(&banana, "banana", "changed last", 1).await;

    assert_eq!(titles(&app, "").await, ["banana", "cherry", "Apple"]);
    assert_eq!(
        titles(&app, "sort=title").await,
        ["Apple", "banana", "cherry"]
    );
    assert_eq!(
        titles(&app, "sort=title&order=desc").await,
        ["cherry", "banana", "Apple"]
    );
    assert_eq!(
        titles(&app, "sort=created").await,
        ["cherry", "Apple", "banana"]
    );
    assert_eq!(
        titles(&app, "sort=created&order=asc").await,
        ["banana", "Apple", "cherry"]
    );
    // The form's "natural" and "everyone's" choices send empty values.
    assert_eq!(
        titles(&app, "sort=title&order=&owner=").await,
        ["Apple", "banana", "cherry"]
    );
    let (_, html) = app.get_text("/?sort=title").await;
    assert!(html.contains("3 documents"));
    assert!(html.contains("<option value=\"title\" selected>"));

    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let (api, total) = api_titles(&app, &token, "sort=title&order=desc").await;
    assert_eq!(api, ["cherry", "banana", "Apple"]);
    assert_eq!(total, 3);

    for query in ["sort=size", "order=up", "owner=bob"] {
        let (status, html) = app.get_text(&format!("/?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(html.contains("malformed query"), "{query}");
        let res = reqwest::Client::new()
            .get(format!("{}/api/v1/documents?{query}", app.address))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{query}");
    }
}

#[tokio::test]
async fn mine_and_shared_with_me_split_the_list_by_owner() {
    let app = spawn_app().await;
    app.create_document("Alice's notes", "mine").await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (bob, bob_csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    for (title, visibility) in [("Bob's open plan", "read"), ("Bob's diary", "private")] {
        let res = bob
            .post(format!("{}/docs", app.address))
            .form(&[
                ("title", title),
                ("body", "text"),
                ("space", "personal"),
                ("csrf", &bob_csrf),
            ])
            .send()
            .await
            .unwrap();
        let location = crate::helpers::location(&res);
        let id = location
            .trim_start_matches("/d/")
            .split('?')
            .next()
            .unwrap();
        let res = bob
            .post(format!("{}/d/{id}/share", app.address))
            .form(&[
                ("action", "visibility"),
                ("visibility", visibility),
                ("csrf", &bob_csrf),
            ])
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success() || res.status().is_redirection());
    }

    assert_eq!(titles(&app, "owner=me").await, ["Alice's notes"]);
    assert_eq!(titles(&app, "owner=shared").await, ["Bob's open plan"]);
    let mut all = titles(&app, "sort=title").await;
    all.sort();
    assert_eq!(all, ["Alice's notes", "Bob's open plan"]);
    let (_, html) = app.get_text("/?owner=shared").await;
    assert!(
        html.contains("1 document<"),
        "the count is of the filtered list"
    );
}

#[tokio::test]
async fn pages_are_numbered_and_every_page_link_keeps_the_sort_and_filter() {
    let app = spawn_app().await;
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let client = reqwest::Client::new();
    for n in 0..120 {
        let res = client
            .post(format!("{}/api/v1/documents", app.address))
            .bearer_auth(&token)
            .json(&serde_json::json!({ "title": format!("note {n:03}"), "body": "x" }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
    }
    let (_, html) = app.get_text("/?sort=title&owner=me&page=2").await;
    assert!(html.contains("120 documents"));
    for page in [1, 3] {
        assert!(
            html.contains(&format!(
                "href=\"/?sort=title&#38;owner=me&#38;page={page}\""
            )),
            "a link to page {page} keeps the sort: {html}"
        );
    }
    assert!(html.contains("<span aria-current=\"page\">2</span>"));
    assert_eq!(
        titles(&app, "sort=title&owner=me&page=2").await[0],
        "note 050"
    );
    assert_eq!(titles(&app, "sort=title&owner=me&page=3").await.len(), 20);
    let (api, total) = api_titles(&app, &token, "sort=title&order=desc&page=3").await;
    assert_eq!(
        (api.first().map(String::as_str), total),
        (Some("note 019"), 120)
    );
}
