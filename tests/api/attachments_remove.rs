//! Taking a file off a document: from the editor's Remove button (the text
//! comes back unsaved), from the API, and what is left to find afterwards.

use reqwest::{StatusCode, header};

use crate::attachments::{PNG, attach};
use crate::helpers::{spawn_app, textareas};

#[tokio::test]
async fn a_removed_file_is_gone_and_its_content_too_when_no_document_has_it() {
    let app = spawn_app().await;
    let id = app.create_document("Album", "x").await;
    let other = app.create_document("Other album", "y").await;
    for doc in [&id, &other] {
        let (status, _) = attach(&app.client, &app, &app.csrf, doc, "pic.png", PNG).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, extra) = attach(&app.client, &app, &app.csrf, &id, "notes.txt", b"words\n").await;
    assert_eq!(extra["name"], "notes.txt");
    let stored = || async {
        quire::db::query_scalar::<i64>("SELECT COUNT(*) FROM attachments")
            .fetch_one(&app.db.read)
            .await
            .unwrap()
    };
    assert_eq!(stored().await, 2);

    // The editor's Remove button: the unsaved text comes back as it was.
    let res = app
        .post_form(
            &format!("/d/{id}/attachments/remove"),
            &[
                ("title", "Album"),
                ("body", "typed, not saved"),
                ("version", "1"),
                ("remove", "pic.png"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(page.contains("Removed pic.png"), "{page}");
    assert_eq!(textareas(&page), vec!["typed, not saved"]);
    assert!(page.contains("Files of this document (1)"), "{page}");
    let gone = app.get(&format!("/d/{id}/files/pic.png")).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    // The other document still has the same content.
    let kept = app.get(&format!("/d/{other}/files/pic.png")).await;
    assert_eq!(kept.status(), StatusCode::OK);
    assert_eq!(stored().await, 2);

    // Removing what is not there keeps the text and says so.
    let res = app
        .post_form(
            &format!("/d/{id}/attachments/remove"),
            &[
                ("title", "Album"),
                ("body", "still mine"),
                ("version", "1"),
                ("remove", "pic.png"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(textareas(&res.text().await.unwrap()), vec!["still mine"]);

    // The API takes a file off too; the last name of a content takes it along.
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let api = crate::helpers::new_client();
    let url = format!(
        "{}/api/v1/documents/{other}/attachments/pic.png",
        app.address
    );
    let res = api.delete(&url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let res = api.delete(&url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(stored().await, 1, "only notes.txt is left");
}

#[tokio::test]
async fn odd_names_and_trashed_documents_find_nothing() {
    let app = spawn_app().await;
    let id = app.create_document("Box", "x").await;
    let (status, _) = attach(&app.client, &app, &app.csrf, &id, "a.png", PNG).await;
    assert_eq!(status, StatusCode::CREATED);
    for odd in [
        "a.png%00",
        "%00",
        "..%2F..%2Fetc%2Fpasswd",
        &"x".repeat(500),
    ] {
        let res = app.get(&format!("/d/{id}/files/{odd}")).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{odd}");
    }
    let res = app.get(&format!("/d/{id}/files/a.png")).await;
    assert_eq!(
        header_value(&res, header::CACHE_CONTROL),
        "private, no-cache"
    );
    let weak = format!("W/{}", header_value(&res, header::ETAG));
    let again = app
        .client
        .get(format!("{}/d/{id}/files/a.png", app.address))
        .header(header::IF_NONE_MATCH, weak)
        .send()
        .await
        .unwrap();
    assert_eq!(
        again.status(),
        StatusCode::NOT_MODIFIED,
        "a weak ETag matches too"
    );
    let res = app.post_form(&format!("/d/{id}/delete"), &[]).await;
    assert!(res.status().is_redirection() || res.status().is_success());
    let res = app.get(&format!("/d/{id}/files/a.png")).await;
    assert_eq!(
        res.status(),
        StatusCode::NOT_FOUND,
        "a trashed document shows no file"
    );
    let (status, _) = attach(&app.client, &app, &app.csrf, &id, "b.png", PNG).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nor takes one");
}

fn header_value(res: &reqwest::Response, name: header::HeaderName) -> String {
    res.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}
