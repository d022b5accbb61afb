//! Comments under documents: who may read and write them (the document's
//! readers; a space can keep them to editors), their authors' rights, the
//! inbox, search, the trash, export and import, and the JSON API.

use reqwest::StatusCode;

use crate::helpers::{Person, TestApp, create_in, location, spawn_app, team_space, told};
use crate::notices::share;

/// `who` comments on document `id`; the comment's id (from the redirect).
pub(crate) async fn comment(who: &Person, id: &str, fields: &[(&str, &str)]) -> i64 {
    let res = who.post(&format!("/d/{id}/comments"), fields).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "comment on {id}");
    let to = location(&res);
    assert!(
        to.starts_with(&format!("/d/{id}?m=commented#comment-")),
        "{to}"
    );
    to.rsplit('-').next().unwrap().parse().unwrap()
}

/// The admin (alice) as a `Person`, to post as the others do.
pub(crate) async fn alice(app: &TestApp) -> Person {
    Person {
        client: app.client.clone(),
        csrf: app.csrf.clone(),
        address: app.address.clone(),
    }
}

#[tokio::test]
async fn a_reader_comments_with_a_quote_and_a_mention_and_nobody_else_sees_it() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = app
        .create_document("Launch plan", "We ship on Friday.")
        .await;
    share(&app, &id, "bob").await;
    // Searched before any comment is made (and again, from what the first
    // search learnt): the comment made next is found all the same.
    for _ in 0..2 {
        assert!(
            !bob.text("/search?q=rollbackability")
                .await
                .contains("In comments")
        );
    }

    let cid = comment(
        &bob,
        &id,
        &[
            (
                "body",
                "Is **Friday** firm, @alice? Checking rollbackability.",
            ),
            ("quote", "We ship   on Friday."),
        ],
    )
    .await;

    let page = app.get_text(&format!("/d/{id}")).await.1;
    assert!(page.contains(&format!(r#"id="comment-{cid}""#)), "{page}");
    assert!(
        page.contains("<strong>Friday</strong>"),
        "the comment's Markdown is drawn"
    );
    assert!(page.contains(r#"<blockquote class="comment-quote">We ship on Friday.</blockquote>"#));
    // The document changes; the quote stays as it was.
    app.save(&id, "Launch plan", "We ship on Monday.", 1).await;
    let page = app.get_text(&format!("/d/{id}")).await.1;
    assert!(page.contains("We ship on Friday.</blockquote>"));

    // Someone who may not read the document sees nothing of its discussion.
    let (status, _) = carol.page(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let res = carol
        .post(&format!("/d/{id}/comments"), &[("body", "let me in")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let found = carol.text("/search?q=rollbackability").await;
    assert!(!found.contains("Launch plan"), "{found}");
    let found = bob.text("/search?q=rollbackability").await;
    assert!(
        found.contains("In comments") && found.contains("Launch plan"),
        "{found}"
    );
    assert!(found.contains(&format!("/d/{id}#comment-{cid}")));

    told(&app).await;
    let inbox = app.get_text("/inbox").await.1;
    assert!(inbox.contains("bob mentioned you in a comment"), "{inbox}");
    assert!(!carol.text("/inbox").await.contains("Launch plan"));
    // bob commented, so he watches it: alice's reply reaches him.
    let me = alice(&app).await;
    comment(
        &me,
        &id,
        &[("body", "Yes, firm."), ("parent", &cid.to_string())],
    )
    .await;
    told(&app).await;
    let inbox = bob.text("/inbox").await;
    assert!(inbox.contains("alice commented"), "{inbox}");
    assert!(inbox.contains(&format!("/d/{id}#comment-")) || inbox.contains("/inbox/"));
}

#[tokio::test]
async fn only_its_author_changes_a_comment_and_the_owner_may_delete_any() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let me = alice(&app).await;
    let id = app.create_document("Budget", "numbers").await;
    share(&app, &id, "bob").await;
    let bobs = comment(&bob, &id, &[("body", "first thought")]).await;
    let alices = comment(&me, &id, &[("body", "owner's note")]).await;

    let res = bob
        .post(
            &format!("/d/{id}/comments/{bobs}"),
            &[("body", "second thought")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let page = app.get_text(&format!("/d/{id}")).await.1;
    assert!(
        page.contains("second thought") && page.contains("edited"),
        "{page}"
    );

    // Another's comment cannot be changed, its text stays.
    let res = me
        .post(
            &format!("/d/{id}/comments/{bobs}"),
            &[("body", "put words in his mouth")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        res.text().await.unwrap().contains("put words in his mouth"),
        "the text comes back"
    );
    let (status, _) = me.page(&format!("/d/{id}/comments/{bobs}/edit")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A reader may not delete the owner's comment; the owner may delete any.
    let res = bob
        .post(&format!("/d/{id}/comments/{alices}/delete"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = me
        .post(&format!("/d/{id}/comments/{bobs}/delete"), &[])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let page = app.get_text(&format!("/d/{id}")).await.1;
    assert!(!page.contains("second thought") && page.contains("owner's note"));
}

#[tokio::test]
async fn a_thread_is_resolved_by_an_editor_or_its_author_and_replies_stay_when_it_is_deleted() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let me = alice(&app).await;
    let id = app.create_document("Roadmap", "Q1").await;
    share(&app, &id, "bob").await;
    let first = comment(&me, &id, &[("body", "What about Q2?")]).await;
    comment(
        &bob,
        &id,
        &[("body", "Q2 is hiring."), ("parent", &first.to_string())],
    )
    .await;

    // bob only reads, and did not start the thread.
    let res = bob
        .post(
            &format!("/d/{id}/comments/{first}/resolve"),
            &[("resolved", "1")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = me
        .post(
            &format!("/d/{id}/comments/{first}/resolve"),
            &[("resolved", "1")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let page = bob.text(&format!("/d/{id}")).await;
    assert!(page.contains("Resolved by alice"), "{page}");
    let res = me
        .post(
            &format!("/d/{id}/comments/{first}/resolve"),
            &[("resolved", "0")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(
        !bob.text(&format!("/d/{id}"))
            .await
            .contains("Resolved by alice")
    );

    // The first comment deleted: its reply keeps its place.
    me.post(&format!("/d/{id}/comments/{first}/delete"), &[])
        .await;
    let page = bob.text(&format!("/d/{id}")).await;
    assert!(page.contains("This comment was deleted.") && page.contains("Q2 is hiring."));
    assert!(!page.contains("What about Q2?"));
}

#[tokio::test]
async fn an_empty_or_oversized_comment_comes_back_with_its_text_and_htmx_gets_the_section() {
    let app = spawn_app().await;
    let me = alice(&app).await;
    let id = app.create_document("Notes", "text").await;
    let long = format!("keep-this-start {}", "x".repeat(16 * 1024));
    let res = me
        .post(&format!("/d/{id}/comments"), &[("body", &long)])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("the limit is 16.0 KB") || page.contains("the limit is"),
        "{page}"
    );
    assert!(page.contains("keep-this-start"), "the text comes back");
    let res = me
        .post(&format!("/d/{id}/comments"), &[("body", "   ")])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // With htmx: the section comes back with the comment in it, and the message.
    let res = app
        .post_htmx(
            &format!("/d/{id}/comments"),
            &[(
                "body",
                "Looks <b onclick=\"alert(1)\">good</b><script>alert(2)</script>",
            )],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["hx-trigger"]
            .to_str()
            .unwrap()
            .contains("Comment added.")
    );
    let section = res.text().await.unwrap();
    assert!(
        section.contains(r#"<section class="talk" id="comments""#),
        "{section}"
    );
    assert!(!section.contains("<html"), "only the section, not a page");
    assert!(
        section.contains("Looks <b>good</b>") && !section.contains("alert("),
        "sanitised: {section}"
    );
    // An error with htmx: the section again, the text kept, the message shown.
    let res = app
        .post_htmx(&format!("/d/{id}/comments"), &[("body", &long)])
        .await;
    let section = res.text().await.unwrap();
    assert!(section.contains(r#"role="alert""#) && section.contains("keep-this-start"));
}

#[tokio::test]
async fn a_space_can_keep_comments_to_those_who_may_edit() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let space = team_space(&app).await;
    let res = app
        .post_form(
            &format!("/spaces/{space}"),
            &[("action", "member"), ("name", "carol"), ("role", "read")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let id = create_in(&app, "Handbook", "rules", &space).await;
    comment(&carol, &id, &[("body", "a reader may comment by default")]).await;

    let res = app
        .post_form(
            &format!("/spaces/{space}"),
            &[
                ("action", "settings"),
                ("name", "Team"),
                ("default_role", "edit"),
                ("comments", "edit"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let res = carol
        .post(&format!("/d/{id}/comments"), &[("body", "now I may not")])
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.text().await.unwrap().contains("now I may not"));
    let page = carol.text(&format!("/d/{id}")).await;
    assert!(
        page.contains("only those who may edit a document comment on it"),
        "{page}"
    );
    assert!(
        page.contains("a reader may comment by default"),
        "readers still read them"
    );
    comment(&bob, &id, &[("body", "an editor still may")]).await;
}

#[tokio::test]
async fn comments_go_to_the_trash_with_their_document_and_come_back_with_it() {
    let app = spawn_app().await;
    let me = alice(&app).await;
    let id = app.create_document("Draft memo", "text").await;
    comment(&me, &id, &[("body", "binned-with-it")]).await;
    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    assert!(
        !app.get_text("/search?q=binned-with-it")
            .await
            .1
            .contains("Draft memo")
    );
    let res = me
        .post(&format!("/d/{id}/comments"), &[("body", "into the bin")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    app.post_form(&format!("/d/{id}/restore"), &[]).await;
    assert!(
        app.get_text(&format!("/d/{id}"))
            .await
            .1
            .contains("binned-with-it")
    );
}
