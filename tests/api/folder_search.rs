//! Folders and tags at work: narrowing a search (`tag:`, `in:`) and renaming a
//! folder with what is in and under it.

use reqwest::StatusCode;
use serde_json::json;

use crate::folders_tags::Api;
use crate::helpers::{TestApp, location, spawn_app};

/// The titles a search lists, in order.
async fn searched(app: &TestApp, q: &str) -> Vec<String> {
    let res = app
        .client
        .get(format!("{}/search", app.address))
        .query(&[("q", q)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{q}");
    let html = res.text().await.unwrap();
    let hits = html.split("<ol class=\"hits\">").nth(1).unwrap_or_default();
    let mut titles: Vec<String> = hits
        .split("<a href=\"/d/")
        .skip(1)
        .filter_map(|a| Some(a.split_once('>')?.1.split("</a>").next()?.to_owned()))
        // Matches in titles are marked.
        .map(|t| t.replace("<mark>", "").replace("</mark>", ""))
        .collect();
    titles.sort();
    titles
}

#[tokio::test]
async fn tag_and_in_narrow_a_search_and_alone_list_what_they_hold() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    for (title, folder, tags) in [
        ("Seed plan", "Projects/Garden", json!(["spring"])),
        ("Seed budget", "Projects", json!([])),
        ("Seed notes", "Projects b", json!(["spring"])),
        ("Seedless", "", json!(["spring", "misc"])),
    ] {
        api.create(json!({"title": title, "body": "about seeds and more seeds",
                          "folder": folder, "tags": tags}))
            .await;
    }
    assert_eq!(searched(&app, "seeds").await.len(), 4);
    assert_eq!(
        searched(&app, "seeds in:Projects").await,
        ["Seed budget", "Seed plan"]
    );
    assert_eq!(
        searched(&app, "seeds TAG:Spring").await,
        ["Seed notes", "Seed plan", "Seedless"]
    );
    assert_eq!(
        searched(&app, "tag:spring seeds in:\"Projects / Garden\"").await,
        ["Seed plan"]
    );
    // Parts of words (the other index) are narrowed the same way.
    assert_eq!(searched(&app, "eedl tag:misc").await, ["Seedless"]);
    assert!(
        searched(&app, "eedl tag:spring in:Projects")
            .await
            .is_empty()
    );
    // Filters alone list what they hold.
    assert_eq!(
        searched(&app, "in:Projects").await,
        ["Seed budget", "Seed plan"]
    );
    // A filter quire cannot use is words, never an error.
    assert!(searched(&app, "in:../x").await.is_empty());
}

#[tokio::test]
async fn renaming_a_folder_moves_what_is_in_and_under_it_as_new_versions() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    for (title, folder) in [
        ("Top", "Garden"),
        ("Deep", "Garden/Seeds"),
        ("Neighbour", "Garden plans"),
    ] {
        api.create(json!({"title": title, "body": "x", "folder": folder}))
            .await;
    }
    let (_, list) = app.get_text("/?folder=Garden").await;
    assert!(list.contains("action=\"/folders/rename\""), "{list}");
    let res = app
        .post_form(
            "/folders/rename",
            &[("from", "Garden"), ("to", " Archive / 2024 ")],
        )
        .await;
    assert_eq!(location(&res), "/?folder=Archive%2F2024&m=folder-renamed");
    assert_eq!(api.titles("folder=Archive/2024").await, ["Deep", "Top"]);
    assert_eq!(api.titles("folder=Archive/2024/Seeds").await, ["Deep"]);
    assert_eq!(api.titles("folder=Garden plans").await, ["Neighbour"]);
    assert!(api.titles("folder=Garden").await.is_empty());
    let (_, body) = api.list("folder=Archive/2024/Seeds").await;
    let id = body["documents"][0]["id"].as_str().unwrap().to_owned();
    let (_, history) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(history.contains("moved to Archive/2024/Seeds"), "{history}");
    assert!(history.contains("Revision 2"), "a new version: {history}");

    // To the top level; a folder with nothing editable is a 404 that says so.
    let res = app
        .post_form(
            "/folders/rename",
            &[("from", "Archive/2024/Seeds"), ("to", "")],
        )
        .await;
    assert_eq!(location(&res), "/?m=folder-renamed");
    let (status, body) = api.list("").await;
    assert_eq!(status, StatusCode::OK);
    let deep = body["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["title"] == "Deep")
        .unwrap()
        .clone();
    assert_eq!(deep["folder"], "");
    let res = app
        .post_form("/folders/rename", &[("from", "Nowhere"), ("to", "x")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .post_form("/folders/rename", &[("from", "Archive"), ("to", "a/../b")])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
}
