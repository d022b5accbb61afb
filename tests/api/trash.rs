use reqwest::StatusCode;

use crate::helpers::{location, spawn_app};

#[tokio::test]
async fn deleted_document_goes_to_the_trash_and_can_be_restored() {
    let app = spawn_app().await;
    let id = app.create_document("Old idea", "maybe later").await;

    let res = app.post_form(&format!("/d/{id}/delete"), &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), "/?m=trashed");

    let (_, home) = app.get_text("/").await;
    assert!(!home.contains("Old idea"));
    let (_, trash) = app.get_text("/trash").await;
    assert!(trash.contains("Old idea"));
    let (status, page) = app.get_text(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(page.contains("in the trash"));

    let res = app.post_form(&format!("/d/{id}/restore"), &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (status, page) = app.get_text(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("maybe later"));
    let (_, trash) = app.get_text("/trash").await;
    assert!(!trash.contains("Old idea"));
}

#[tokio::test]
async fn emptying_the_trash_deletes_for_good_and_spares_live_documents() {
    let app = spawn_app().await;
    let gone = app.create_document("Gone", "x").await;
    let kept = app.create_document("Kept", "y").await;
    app.post_form(&format!("/d/{gone}/delete"), &[]).await;

    // A plain form post (no JavaScript, so no dialog) asks first, and deletes nothing.
    let res = app.post_form("/trash/empty", &[]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(page.contains("Empty the trash?"), "{page}");
    assert!(page.contains(r#"name="confirm" value="yes""#), "{page}");
    let (_, trash) = app.get_text("/trash").await;
    assert!(trash.contains("Gone"), "nothing deleted before the answer");

    let res = app.post_form("/trash/empty", &[("confirm", "yes")]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    assert_eq!(
        app.get(&format!("/d/{gone}")).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&format!("/d/{kept}")).await.status(),
        StatusCode::OK
    );
    let restore = app.post_form(&format!("/d/{gone}/restore"), &[]).await;
    assert_eq!(restore.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn saving_a_trashed_document_keeps_the_text_and_says_why() {
    let app = spawn_app().await;
    let id = app.create_document("Draft", "v1").await;
    app.post_form(&format!("/d/{id}/delete"), &[]).await;

    let res = app.save(&id, "Draft", "words I typed", 1).await;

    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let html = res.text().await.unwrap();
    assert!(html.contains("words I typed"));
    assert!(html.contains("in the trash"));
}
