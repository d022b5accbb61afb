//! `#tags` written in the text become the document's tags when it is saved
//! with its tags (the editor, the API when it sends tags) and when notes are
//! imported; never from code, headings or addresses. A quire export's own tags
//! are kept as they are.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{api_token, location, spawn_app};
use crate::transfer::make_zip;
use crate::transfer_upload::upload;

/// The tags a document's page shows, in order.
fn page_tags(page: &str) -> Vec<String> {
    let Some(list) = page.split("<p class=\"tags\"").nth(1) else {
        return Vec::new();
    };
    let list = list.split("</p>").next().unwrap_or_default();
    list.split("class=\"tag\"")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split('<').next()?.to_owned()))
        .collect()
}

#[tokio::test]
async fn tags_written_in_the_text_join_the_documents_tags_on_save() {
    let app = spawn_app().await;
    let body = "# Plans #not-a-tag\n\nFor the #Garden, see #project/alpha.\n\n\
                `#code` https://example.org/#anchor issue #42 C# ok";
    let res = app
        .post_form(
            "/docs",
            &[("title", "Plans"), ("body", body), ("tags", "home")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let path = location(&res);
    let id = path.trim_start_matches("/d/").split('?').next().unwrap();
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert_eq!(page_tags(&page), ["home", "garden", "project/alpha"]);
    let (_, list) = app.get_text("/?tag=garden").await;
    assert!(list.contains(">Plans<"), "the tag lists it");

    // The API: tags sent take the text's too; tags left out are kept.
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let res = app
        .client
        .put(format!("{}/api/v1/documents/{id}", app.address))
        .bearer_auth(&token)
        .header("If-Match", "\"1\"")
        .json(&json!({"title": "Plans", "body": "Only #roses now", "tags": ["home"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "{}",
        res.text().await.unwrap()
    );
    let got: serde_json::Value = res.json().await.unwrap();
    assert_eq!(got["tags"], json!(["home", "roses"]));
    let res = app
        .client
        .put(format!("{}/api/v1/documents/{id}", app.address))
        .bearer_auth(&token)
        .header("If-Match", "\"2\"")
        .json(&json!({"title": "Plans", "body": "And #tulips"}))
        .send()
        .await
        .unwrap();
    let got: serde_json::Value = res.json().await.unwrap();
    assert_eq!(got["tags"], json!(["home", "roses"]), "kept as they were");
}

#[tokio::test]
async fn imported_notes_take_their_inline_tags() {
    let app = spawn_app().await;
    let zip = make_zip(&[
        (
            "vault/Roses.md",
            b"---\ntags: [flowers]\n---\nPrune in #spring, not in `#winter`.\n",
        ),
        ("vault/Plain.md", b"No tags here, C# and #1 aside.\n"),
    ]);
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &zip).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    let (_, list) = app.get_text("/?tag=spring").await;
    assert!(
        list.contains(">Roses<") && !list.contains(">Plain<"),
        "{list}"
    );
    let (_, list) = app.get_text("/?tag=flowers").await;
    assert!(list.contains(">Roses<"), "front matter's tags stay");
    let (_, list) = app.get_text("/?tag=winter").await;
    assert!(!list.contains(">Roses<"), "not from code");
}
