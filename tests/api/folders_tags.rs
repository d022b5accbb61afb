//! Folders and tags: set in the editor and the API, kept by saves that leave
//! them out, recorded in the history, merged with others' saves, narrowing the
//! list (a folder with the folders under it), counted in the tree and the tag
//! list, and granting nothing: another user's private document shows in none
//! of it.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, api_token, location, someone_elses_private_document, spawn_app};

pub struct Api {
    pub client: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Api {
    pub async fn new(app: &TestApp) -> Self {
        Self {
            client: reqwest::Client::new(),
            base: format!("{}/api/v1/documents", app.address),
            token: api_token(&app.address, &app.client, &app.csrf).await,
        }
    }

    pub async fn create(&self, doc: Value) -> Value {
        let res = self
            .client
            .post(&self.base)
            .bearer_auth(&self.token)
            .json(&doc)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED, "{doc}");
        res.json().await.unwrap()
    }

    pub async fn put(&self, id: &str, version: i64, doc: Value) -> (StatusCode, Value) {
        let res = self
            .client
            .put(format!("{}/{id}", self.base))
            .bearer_auth(&self.token)
            .header("If-Match", format!("\"{version}\""))
            .json(&doc)
            .send()
            .await
            .unwrap();
        (res.status(), res.json().await.unwrap())
    }

    pub async fn list(&self, query: &str) -> (StatusCode, Value) {
        let res = self
            .client
            .get(format!("{}?{query}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        (res.status(), res.json().await.unwrap())
    }

    pub async fn titles(&self, query: &str) -> Vec<String> {
        let (status, body) = self.list(query).await;
        assert_eq!(status, StatusCode::OK, "{query}: {body}");
        let mut titles: Vec<String> = body["documents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["title"].as_str().unwrap().to_owned())
            .collect();
        titles.sort();
        titles
    }
}

#[tokio::test]
async fn folders_and_tags_are_tidied_kept_by_saves_without_them_and_narrow_the_list() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let tomatoes = api
        .create(
            json!({"title": "Tomatoes", "body": "red", "folder": " Projects / Garden/ ",
                       "tags": ["#Garden", "Summer", "garden"]}),
        )
        .await;
    assert_eq!(tomatoes["folder"], "Projects/Garden");
    assert_eq!(tomatoes["tags"], json!(["garden", "summer"]));
    api.create(json!({"title": "Plan", "body": "x", "folder": "Projects", "tags": ["work"]}))
        .await;
    api.create(json!({"title": "Projects b note", "body": "x", "folder": "Projects b"}))
        .await;
    api.create(json!({"title": "Loose", "body": "x"})).await;

    // A folder shows what is in it and under it, not a folder that merely
    // starts with the same letters.
    assert_eq!(api.titles("folder=Projects").await, ["Plan", "Tomatoes"]);
    assert_eq!(api.titles("folder=Projects/Garden").await, ["Tomatoes"]);
    assert_eq!(api.titles("folder=/Projects//Garden/").await, ["Tomatoes"]);
    assert_eq!(api.titles("tag=GARDEN").await, ["Tomatoes"]);
    assert_eq!(api.titles("folder=Projects&tag=work").await, ["Plan"]);
    assert!(api.titles("folder=Nowhere").await.is_empty());
    let (_, body) = api.list("folder=Projects").await;
    assert_eq!(body["total"], 2);
    let row = &body["documents"].as_array().unwrap()[0];
    assert!(row["folder"].is_string() && row["tags"].is_array(), "{row}");
    let (status, body) = api.list("folder=a/../b").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // A save that leaves them out keeps them; one that sends them moves.
    let id = tomatoes["id"].as_str().unwrap();
    let (status, saved) = api
        .put(id, 1, json!({"title": "Tomatoes", "body": "ripe"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (saved["folder"].clone(), saved["tags"].clone()),
        (json!("Projects/Garden"), json!(["garden", "summer"]))
    );
    let (status, saved) = api
        .put(
            id,
            2,
            json!({"title": "Tomatoes", "body": "ripe", "folder": "Archive", "tags": []}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(saved["folder"], "Archive");
    assert!(
        api.titles("tag=garden").await.is_empty(),
        "the tag went with the save"
    );
    assert_eq!(api.titles("folder=Archive").await, ["Tomatoes"]);

    // Refused with the reason, nothing written.
    let (status, body) = api
        .put(
            id,
            3,
            json!({"title": "Tomatoes", "body": "x", "folder": "../etc"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("folder"), "{body}");

    // The history says what moved.
    let (_, history) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(history.contains("moved to Archive"), "{history}");
    assert!(history.contains("tags removed"), "{history}");
    assert!(history.contains("in Projects/Garden"), "{history}");
}

#[tokio::test]
async fn the_list_page_draws_the_folder_tree_and_tags_and_the_document_its_breadcrumbs() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let doc = api
        .create(
            json!({"title": "Seeds", "body": "x", "folder": "Projects/Garden", "tags": ["to sow"]}),
        )
        .await;
    api.create(json!({"title": "Budget", "body": "x", "folder": "Projects"}))
        .await;

    let (status, html) = app.get_text("/?folder=Projects/Garden").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("data-folder=\"Projects\""), "{html}");
    assert!(
        html.contains("<details open>"),
        "the path to the shown folder is open"
    );
    assert!(
        html.contains("Seeds") && !html.contains(">Budget<"),
        "{html}"
    );
    assert!(html.contains("1 document in Projects/Garden"), "{html}");
    // The tag links keep the folder; the sort form keeps both.
    assert!(
        html.contains("href=\"/?folder=Projects%2FGarden&#38;tag=to%20sow&#38;\""),
        "{html}"
    );
    assert!(html.contains("<input type=\"hidden\" name=\"folder\" value=\"Projects/Garden\">"));

    let id = doc["id"].as_str().unwrap();
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains("href=\"/?folder=Projects\">Projects</a>"),
        "{page}"
    );
    assert!(
        page.contains("href=\"/?folder=Projects%2FGarden\">Garden</a>"),
        "{page}"
    );
    assert!(
        page.contains("href=\"/?tag=to%20sow\">to sow</a>"),
        "{page}"
    );
}

#[tokio::test]
async fn the_editor_moves_and_tags_and_a_refused_save_gives_the_fields_back() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "text").await;
    let (_, edit) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(edit.contains("name=\"folder\""), "{edit}");
    let res = app
        .post_form(
            &format!("/d/{id}"),
            &[
                ("title", "Notes"),
                ("body", "text"),
                ("version", "1"),
                ("folder", "Work/Meetings"),
                ("tags", "Weekly, team"),
            ],
        )
        .await;
    assert!(location(&res).starts_with(&format!("/d/{id}")));
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains(">Meetings</a>") && page.contains(">weekly</a>"),
        "{page}"
    );
    // The edit page offers the folder in use and shows the tags as kept.
    let (_, edit) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(edit.contains("<option value=\"Work/Meetings\">"), "{edit}");
    assert!(edit.contains("value=\"weekly, team\""), "{edit}");

    let res = app
        .post_form(
            &format!("/d/{id}"),
            &[
                ("title", "Notes"),
                ("body", "my new words"),
                ("version", "2"),
                ("folder", "a/../b"),
                ("tags", "x"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("my new words") && html.contains("value=\"a/../b\""),
        "{html}"
    );
    // A form without the fields (an older page) leaves the document where it is.
    app.save(&id, "Notes", "edited", 2).await;
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(
        page.contains(">Meetings</a>") && page.contains(">team</a>"),
        "{page}"
    );
}

#[tokio::test]
async fn tags_and_folder_changed_by_two_people_at_once_merge() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let doc = api
        .create(json!({"title": "Plan", "body": "one\ntwo\nthree\n", "folder": "A", "tags": ["old", "keep"]}))
        .await;
    let id = doc["id"].as_str().unwrap();
    // Someone moves it and adds a tag...
    let (status, _) = api
        .put(id, 1, json!({"title": "Plan", "body": "one\ntwo\nthree\n", "folder": "B", "tags": ["old", "keep", "theirs"]}))
        .await;
    assert_eq!(status, StatusCode::OK);
    // ...while the editor, still on version 1, drops a tag and changes a line.
    let res = app
        .post_form(
            &format!("/d/{id}"),
            &[
                ("title", "Plan"),
                ("body", "one\ntwo\nTHREE\n"),
                ("version", "1"),
                ("folder", "A"),
                ("tags", "keep, mine"),
            ],
        )
        .await;
    assert!(location(&res).contains("merged"), "{:?}", res.status());
    let got: Value = api
        .client
        .get(format!("{}/{id}", api.base))
        .bearer_auth(&api.token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        got["folder"], "B",
        "the editor left the folder: theirs stands"
    );
    assert_eq!(got["tags"], json!(["keep", "theirs", "mine"]));
    assert_eq!(got["body"], "one\ntwo\nTHREE\n");
}

#[tokio::test]
async fn another_users_private_folders_and_tags_stay_out_of_sight() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    api.create(json!({"title": "Mine", "body": "x", "folder": "Shared space", "tags": ["common"]}))
        .await;
    let (bob, _, _) = someone_elses_private_document(
        &app,
        "bob",
        &[
            ("title", "Bob's secret"),
            ("body", "x"),
            ("folder", "Secret plans"),
            ("tags", "surprise, common"),
        ],
    )
    .await;

    let (_, html) = app.get_text("/").await;
    assert!(
        !html.contains("Secret plans") && !html.contains("surprise"),
        "{html}"
    );
    assert!(html.contains("Shared space"));
    // "common" counts only the document this reader may read.
    assert!(
        html.contains(">common</a> <span class=\"count\">1</span>"),
        "{html}"
    );
    assert!(api.titles("tag=surprise").await.is_empty());
    assert!(api.titles("folder=Secret plans").await.is_empty());
    // The same in the API's folder and tag lists.
    let get = |path: &str| {
        api.client
            .get(format!("{}/api/v1/{path}", app.address))
            .bearer_auth(&api.token)
            .send()
    };
    let folders: Value = get("folders").await.unwrap().json().await.unwrap();
    assert_eq!(
        folders,
        json!({"folders": [{"path": "Shared space", "documents": 1}]})
    );
    let tags: Value = get("tags").await.unwrap().json().await.unwrap();
    assert_eq!(tags, json!({"tags": [{"name": "common", "documents": 1}]}));
    // Bob sees his own.
    let html = bob
        .get(format!("{}/?tag=surprise", app.address))
        .send()
        .await
        .unwrap();
    let html = html.text().await.unwrap();
    assert!(html.contains("Bob&#39;s secret"), "{html}");
}
