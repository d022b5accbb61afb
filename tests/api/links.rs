//! Links between documents: `[[Title]]` leads to the document of that title,
//! follows it through a rename, waits for a title nobody has yet (offering to
//! create it), and every document lists what links to it. A reader sees links
//! and backlinks only to and from documents they may read.

use reqwest::StatusCode;
use serde_json::json;

use crate::folders_tags::Api;
use crate::helpers::{location, someone_elses_private_document, spawn_app};

fn id_of(doc: &serde_json::Value) -> String {
    doc["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn links_lead_to_documents_follow_a_rename_and_wait_for_a_title() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let plan = api
        .create(json!({"title": "Tomato Plan", "body": "seeds"}))
        .await;
    let plan_id = id_of(&plan);
    let garden = api
        .create(json!({"title": "Garden", "body": "See [[tomato  plan]], [[Compost|the heap]] and [[Projects/Beans]]."}))
        .await;
    let garden_id = id_of(&garden);

    let (status, page) = app.get_text(&format!("/d/{garden_id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&format!(
            "<a class=\"wikilink\" href=\"/d/{plan_id}\">tomato  plan</a>"
        )),
        "{page}"
    );
    assert!(
        page.contains("class=\"wikilink missing\" href=\"/new?title=Compost\""),
        "{page}"
    );
    assert!(
        page.contains("href=\"/new?title=Beans&amp;folder=Projects\""),
        "{page}"
    );
    let (_, page) = app.get_text(&format!("/d/{plan_id}")).await;
    assert!(page.contains("Linked from"), "{page}");
    assert!(
        page.contains(&format!("<li><a href=\"/d/{garden_id}\">Garden</a></li>")),
        "{page}"
    );

    // Renamed, the document keeps its links.
    let (status, _) = api
        .put(
            &plan_id,
            1,
            json!({"title": "Tomato Schedule", "body": "seeds"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = app.get_text(&format!("/d/{garden_id}")).await;
    assert!(
        page.contains(&format!("href=\"/d/{plan_id}\">tomato  plan</a>")),
        "{page}"
    );

    // A title taken later, and a folder and title, take the links waiting for them.
    let compost = id_of(&api.create(json!({"title": "compost", "body": "x"})).await);
    let beans = id_of(
        &api.create(json!({"title": "Beans", "body": "x", "folder": "Projects"}))
            .await,
    );
    let (_, page) = app.get_text(&format!("/d/{garden_id}")).await;
    assert!(
        page.contains(&format!("href=\"/d/{compost}\">the heap</a>")),
        "{page}"
    );
    assert!(
        page.contains(&format!("href=\"/d/{beans}\">Projects/Beans</a>")),
        "{page}"
    );
    assert!(!page.contains("wikilink missing"), "{page}");

    // A page that does not say where a link leads (a revision, a preview).
    let res = app.get("/go?to=tomato%20schedule").await;
    assert_eq!(location(&res), format!("/d/{plan_id}"));
    let res = app.get("/go?to=No%20such%20page").await;
    assert_eq!(location(&res), "/new?title=No%20such%20page");
    let (_, editor) = app.get_text("/new?title=No%20such%20page").await;
    assert!(editor.contains("value=\"No such page\""), "{editor}");

    // A link to a document in the trash leads nowhere; its page keeps no backlink from it.
    let res = app.post_form(&format!("/d/{compost}/delete"), &[]).await;
    assert!(res.status().is_redirection() || res.status().is_success());
    let (_, page) = app.get_text(&format!("/d/{garden_id}")).await;
    assert!(
        page.contains("class=\"wikilink missing\" href=\"/new?title=Compost\""),
        "{page}"
    );

    // Editing the text away removes the link and the backlink.
    let (status, _) = api
        .put(
            &garden_id,
            1,
            json!({"title": "Garden", "body": "no links now"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = app.get_text(&format!("/d/{plan_id}")).await;
    assert!(!page.contains("Linked from"), "{page}");
}

#[tokio::test]
async fn links_and_backlinks_show_only_what_the_reader_may_read() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let notes = id_of(
        &api.create(json!({"title": "Alice notes", "body": "x"}))
            .await,
    );
    let (bob, _, secret) = someone_elses_private_document(
        &app,
        "bob",
        &[("title", "Bob secret"), ("body", "about [[Alice notes]]")],
    )
    .await;

    // Alice may not read Bob's document: no backlink from it, and her link to
    // it by title leads nowhere and names no id.
    let (_, page) = app.get_text(&format!("/d/{notes}")).await;
    assert!(
        !page.contains("Linked from") && !page.contains(&secret),
        "{page}"
    );
    let index = id_of(
        &api.create(json!({"title": "Index", "body": "[[Bob secret]]"}))
            .await,
    );
    let (_, page) = app.get_text(&format!("/d/{index}")).await;
    assert!(page.contains("class=\"wikilink missing\""), "{page}");
    assert!(!page.contains(&secret), "{page}");
    let res = app.get("/go?to=Bob%20secret").await;
    assert_eq!(location(&res), "/new?title=Bob%20secret");
    // The titles offered while a link is typed are hers to read only, and
    // what she types is text, not a pattern.
    let (_, offered) = app.get_text("/titles?q=ecre").await;
    assert!(!offered.contains("Bob secret"), "{offered}");
    let (_, offered) = app.get_text("/titles?q=ALICE").await;
    assert!(offered.contains("data-target=\"Alice notes\""), "{offered}");
    api.create(json!({"title": "100% done", "body": "x"})).await;
    let (_, offered) = app.get_text("/titles?q=%25").await;
    assert!(
        offered.contains("100% done") && !offered.contains("Alice notes"),
        "{offered}"
    );
    // Bob's own page links to what he may read; Alice's notes are hers alone
    // unless shared.
    let page = bob
        .get(format!("{}/d/{secret}", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Alice notes"), "{page}");
}

/// After an upgrade whose renderer draws links, a start redoes the pages in the
/// background: a document shows what links to it though nobody has opened the
/// linking page since.
#[tokio::test]
async fn pages_from_before_links_are_redone_in_the_background_after_a_start() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let target = id_of(&api.create(json!({"title": "Seed list", "body": "x"})).await);
    let linking = id_of(
        &api.create(json!({"title": "Old page", "body": "see [[Seed list]]"}))
            .await,
    );
    // As a page made by the renderer before: no links recorded, none drawn.
    for sql in [
        "UPDATE documents SET render_version = 5, links = '[]' WHERE id = $1",
        "DELETE FROM quire_settings WHERE key = 'rendered_with' AND $1 <> ''",
    ] {
        quire::db::query(sql)
            .bind(linking.as_str())
            .execute(&app.db.write)
            .await
            .unwrap();
    }
    let (_, page) = app.get_text(&format!("/d/{target}")).await;
    assert!(!page.contains("Linked from"), "{page}");

    let (config, dir) = app.stop().await;
    let again = crate::helpers::start(config, dir).await;
    let mut shown = String::new();
    for _ in 0..100 {
        shown = again.get_text(&format!("/d/{target}")).await.1;
        if shown.contains("Linked from") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        shown.contains(&format!("<a href=\"/d/{linking}\">Old page</a>")),
        "{shown}"
    );
}

#[tokio::test]
async fn a_link_to_a_heading_leads_to_its_anchor_there_or_on_this_page() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let site = api
        .create(json!({"title": "Website redesign", "body": "## Mock up\n\nThe drawing."}))
        .await;
    let site_id = id_of(&site);
    let notes = api
        .create(json!({"title": "Notes", "body": "# Intro\n\nSee [[Website redesign#Mock up]], [[Website redesign#Mock up|the drawing]], [[#Intro]], [[Nowhere#Part]] and [[#]]."}))
        .await;
    let notes_id = id_of(&notes);

    let (status, page) = app.get_text(&format!("/d/{notes_id}")).await;
    assert_eq!(status, StatusCode::OK);
    let to_heading = format!("<a class=\"wikilink\" href=\"/d/{site_id}#h-mock-up\">");
    assert_eq!(page.matches(&to_heading).count(), 2, "{page}");
    assert!(
        page.contains(&format!("{to_heading}the drawing</a>")),
        "{page}"
    );
    assert!(page.contains("<a href=\"#h-intro\""), "{page}");
    assert!(
        page.contains("<h1 id=\"h-intro\""),
        "the anchor exists: {page}"
    );
    // A missing document is offered by its title, not title and heading.
    assert!(
        page.contains("class=\"wikilink missing\" href=\"/new?title=Nowhere\""),
        "{page}"
    );
    assert!(!page.contains("Website%20redesign%23"), "{page}");
    // `[[#]]` leads nowhere: its text stays, with no link.
    assert!(page.contains(" and #.</p>"), "{page}");
    // The link is to the document: "Linked from" on its page names this one.
    let (_, target) = app.get_text(&format!("/d/{site_id}")).await;
    assert!(
        target.contains(&format!("href=\"/d/{notes_id}\"")),
        "{target}"
    );
}
