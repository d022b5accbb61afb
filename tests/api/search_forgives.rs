//! Search that forgives, on whichever engine the suite runs: other forms of a
//! word (exact forms first), `OR`, `-word`, `-"phrase"`, `title:`, `author:`,
//! `after:`/`before:`, and "Did you mean" after a typo, offering only words
//! the searcher's own readable documents hold.

use crate::helpers::pages::{hit_titles, search_page};
use crate::helpers::{Person, TestApp, someone_elses_private_document, spawn_app, team_space};

async fn found(app: &TestApp, q: &str) -> Vec<String> {
    hit_titles(&page(app, q).await)
}

async fn page(app: &TestApp, q: &str) -> String {
    search_page(&app.client, app, q).await
}

/// What the page offers after "Did you mean", if anything.
fn meant(page: &str) -> Option<String> {
    let at = page.find(r#"id="did-you-mean""#)?;
    let link = page[at..].split("<a href=\"").nth(1)?;
    let text = link.split_once('>')?.1.split("</a>").next()?;
    Some(text.to_string())
}

#[tokio::test]
async fn other_forms_of_a_word_are_found_after_the_exact_form() {
    let app = spawn_app().await;
    app.create_document("Tomato plan", "Sow in March, one tomato per pot.")
        .await;
    app.create_document("Harvest log", "The tomatoes were early this year.")
        .await;
    app.create_document("Release notes", "We deployed on Friday and kept deploying.")
        .await;
    app.create_document("Runbook", "How to deploy the site.")
        .await;
    app.create_document("Unrelated", "The runtime of the garden shed.")
        .await;

    assert_eq!(
        found(&app, "tomatoes").await,
        ["Harvest log", "Tomato plan"]
    );
    assert_eq!(found(&app, "tomato").await, ["Tomato plan", "Harvest log"]);
    // The exact form first, then the others (`deployed` is also the start
    // of no other word, so only its forms find the runbook).
    assert_eq!(found(&app, "deployed").await, ["Release notes", "Runbook"]);
    assert_eq!(found(&app, "deploying site").await, ["Runbook"]);
    // A phrase asks for the words as typed.
    assert!(found(&app, "\"tomatoes were\"").await == ["Harvest log"]);
    assert!(found(&app, "\"tomato were\"").await.is_empty());
    // The other form is marked in the snippet.
    let shown = page(&app, "tomatoes").await;
    assert!(shown.contains("<mark>tomato</mark>"), "{shown}");
}

#[tokio::test]
async fn operators_narrow_and_widen() {
    let app = spawn_app().await;
    app.create_document("Tomato garden", "Tomatoes and a garden plan.")
        .await;
    app.create_document("Basil", "Basil grows in the garden.")
        .await;
    app.create_document("Fox notes", "The red fox crossed the garden at dusk.")
        .await;
    app.create_document("Plans", "garden plan for spring").await;

    let mut either = found(&app, "tomato OR basil").await;
    either.sort();
    assert_eq!(either, ["Basil", "Tomato garden"]);
    let without = found(&app, "-tomato garden").await;
    assert!(
        !without.contains(&"Tomato garden".to_string()),
        "{without:?}"
    );
    assert_eq!(without.len(), 3, "{without:?}");
    let no_fox = found(&app, "garden -\"red fox\"").await;
    assert!(!no_fox.contains(&"Fox notes".to_string()), "{no_fox:?}");
    assert_eq!(no_fox.len(), 3);
    // Parts of words leave out the unwanted too.
    for q in ["gard -basil", "arde -basil", "arde -title:basil"] {
        let parts = found(&app, q).await;
        assert!(!parts.contains(&"Basil".to_string()), "{q}: {parts:?}");
        assert_eq!(parts.len(), 3, "{q}: {parts:?}");
    }
    assert_eq!(found(&app, "title:plan").await, ["Plans"]);
    assert_eq!(found(&app, "plan -title:plans").await, ["Tomato garden"]);
    // Exclusions alone list everything else.
    let mut rest = found(&app, "-garden").await;
    rest.sort();
    assert!(rest.is_empty(), "every document holds garden: {rest:?}");
    let rest = found(&app, "-fox").await;
    assert_eq!(rest.len(), 3, "{rest:?}");
}

#[tokio::test]
async fn author_and_dates_filter() {
    let app = spawn_app().await;
    app.create_document("Mine", "compost notes").await;
    let bea = Person::new(&app, "bea").await;
    let team = team_space(&app).await;
    let made = bea
        .post(
            "/docs",
            &[
                ("title", "Bea compost"),
                ("body", "compost notes"),
                ("space", &team),
            ],
        )
        .await;
    assert_eq!(made.status(), 303);
    assert_eq!(found(&app, "compost author:bea").await, ["Bea compost"]);
    assert_eq!(found(&app, "author:alice compost").await, ["Mine"]);
    assert_eq!(found(&app, "author:@BEA").await, ["Bea compost"]);
    assert!(found(&app, "compost author:nobody").await.is_empty());
    assert_eq!(found(&app, "compost after:2000").await.len(), 2);
    assert!(found(&app, "compost before:2000-01-01").await.is_empty());
    assert!(found(&app, "compost after:2999-12").await.is_empty());
    // Not a date: plain words, and nothing holds them.
    assert!(found(&app, "compost after:soon").await.is_empty());
}

#[tokio::test]
async fn did_you_mean_offers_only_words_the_searcher_may_read() {
    let app = spawn_app().await;
    app.create_document("Rollback", "How to rollback a deploy.")
        .await;
    // Someone else's private word, close to a typo alice makes.
    someone_elses_private_document(
        &app,
        "carol",
        &[("title", "Secret"), ("body", "The zanzibarian project.")],
    )
    .await;

    let typo = page(&app, "deplyo rollbak").await;
    assert_eq!(meant(&typo).as_deref(), Some("deploy rollback"), "{typo}");
    assert!(page(&app, "rollback").await.find("did-you-mean").is_none());

    let private = page(&app, "zanzibarain").await;
    assert_eq!(meant(&private), None, "carol's word leaked: {private}");
    assert!(!private.contains("zanzibarian"));
    // Once alice holds the word herself, it is offered.
    app.create_document("Travel", "A zanzibarian holiday.")
        .await;
    let own = page(&app, "zanzibarain").await;
    assert_eq!(meant(&own).as_deref(), Some("zanzibarian"), "{own}");
}
