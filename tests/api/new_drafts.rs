//! A new document's text is kept before its first save: the editor's autosave
//! keeps it under the page's own key, the New page and the list offer it back to
//! its writer only, going on with it brings every field back, and creating the
//! document (or discarding the draft) removes it.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, location, sign_in, spawn_app, spawn_with, textareas, unescape};

/// The value of the hidden `draft_key` field of an editor page.
fn draft_key(html: &str) -> String {
    let (_, rest) = html
        .split_once(r#"name="draft_key" value=""#)
        .expect("a draft key in the editor");
    rest.split('"').next().unwrap().to_owned()
}

#[tokio::test]
async fn a_new_documents_text_is_kept_offered_back_to_its_writer_and_gone_once_created() {
    let app = spawn_app().await;
    let (status, page) = app.get_text("/new").await;
    assert_eq!(status, StatusCode::OK);
    let key = draft_key(&page);
    assert!(page.contains(r#"hx-post="/new/draft""#), "{page}");
    // Two editor pages are two drafts.
    let (_, other_page) = app.get_text("/new").await;
    assert_ne!(draft_key(&other_page), key);

    let res = app
        .post_htmx(
            "/new/draft",
            &[
                ("draft_key", &key),
                ("title", "Quarterly <plan>"),
                ("body", "typed before any save"),
                ("folder", "Plans/2027"),
                ("tags", "q1, draft"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("Draft kept"));

    // Offered on the New page's list of unsaved documents, the title escaped.
    let (status, offers) = app.get_text("/new/drafts").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!offers.contains("<plan>"), "{offers}");
    assert!(unescape(&offers).contains("Quarterly <plan>"), "{offers}");
    assert!(offers.contains(&format!("/new?draft={key}")), "{offers}");
    // ...but not to the editor that is writing it.
    let (_, own) = app.get_text(&format!("/new/drafts?except={key}")).await;
    assert!(!own.contains(&key), "{own}");

    // Nobody else sees it, or can open it by its key.
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let (bob, _) = sign_in(&app.address, "bob", PASSWORD).await;
    let get = |path: String| bob.get(format!("{}{path}", app.address)).send();
    let bobs = get("/new/drafts".into())
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!bobs.contains("Quarterly"), "{bobs}");
    let bobs = get(format!("/new?draft={key}"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!bobs.contains("typed before any save"), "{bobs}");
    assert_ne!(draft_key(&bobs), key);

    // Going on with it brings back every field, under the same key.
    let (_, editor) = app.get_text(&format!("/new?draft={key}")).await;
    assert_eq!(textareas(&editor), vec!["typed before any save".to_owned()]);
    assert!(
        unescape(&editor).contains(r#"value="Quarterly <plan>""#),
        "{editor}"
    );
    assert!(editor.contains(r#"value="Plans/2027""#), "{editor}");
    assert!(editor.contains(r#"value="q1, draft""#), "{editor}");
    assert_eq!(draft_key(&editor), key);

    // Saved as a document, it is no longer offered.
    let res = app
        .post_form(
            "/docs",
            &[
                ("title", "Quarterly plan"),
                ("body", "typed before any save"),
                ("draft_key", &key),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with("/d/"));
    let (_, offers) = app.get_text("/new/drafts").await;
    assert!(!offers.contains(&key), "{offers}");
}

#[tokio::test]
async fn a_new_draft_is_discarded_on_request_and_refused_over_the_cap_or_with_a_bad_key() {
    let app = spawn_with(|c| c.max_doc_bytes = 1024).await;
    let key = "k".repeat(20);
    let res = app
        .post_htmx(
            "/new/draft",
            &[("draft_key", &key), ("title", ""), ("body", "notes")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, offers) = app.get_text("/new/drafts").await;
    assert!(offers.contains("Untitled"), "{offers}");

    let res = app.post_form("/new/draft/discard", &[("key", &key)]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).starts_with("/new"));
    let (_, offers) = app.get_text("/new/drafts").await;
    assert!(!offers.contains("Untitled"), "{offers}");

    let big = "x".repeat(2000);
    let res = app
        .post_htmx(
            "/new/draft",
            &[("draft_key", &key), ("title", "Big"), ("body", &big)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(res.text().await.unwrap().contains("still here"));
    for bad in ["short", "../../../etc/passwd-and-more", ""] {
        let res = app
            .post_htmx(
                "/new/draft",
                &[("draft_key", bad), ("title", "T"), ("body", "b")],
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
    }
    let (_, offers) = app.get_text("/new/drafts").await;
    assert!(!offers.contains("new-drafts"), "{offers}");
}
