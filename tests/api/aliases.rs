//! Aliases: a document's front matter `aliases:` are other titles `[[...]]`
//! reaches it by (links written before and after the alias, to a heading, by
//! the go-to address, as backlinks), never shown as text; a title beats an
//! alias; an alias of a document the reader may not read leads nowhere and
//! names nothing; the trash takes an alias's links away and gives them back;
//! a vault zipped inside its folder keeps its path links.

use reqwest::StatusCode;
use serde_json::json;

use crate::folders_tags::Api;
use crate::helpers::{location, someone_elses_private_document, spawn_app};

fn id_of(doc: &serde_json::Value) -> String {
    doc["id"].as_str().unwrap().to_owned()
}

fn leads_to(page: &str, id: &str, label: &str) -> bool {
    page.contains(&format!("href=\"/d/{id}\">{label}</a>"))
        || page.contains(&format!("href=\"/d/{id}#"))
}

#[tokio::test]
async fn links_reach_a_document_by_its_aliases() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let body = "---\naliases:\n  - Redesign\n  - \"Web 2.0\"\n---\n# Website redesign\n\n## Mockup\n\nDrafts.";
    let site = id_of(
        &api.create(json!({"title": "Website redesign", "body": body}))
            .await,
    );
    let early = id_of(
        &api.create(json!({"title": "Early", "body": "See [[Roadmap]]."}))
            .await,
    );
    let notes = id_of(
        &api.create(json!({"title": "Notes",
            "body": "[[redesign]], [[web  2.0|the new site]] and [[Redesign#Mockup]]."}))
            .await,
    );
    let (status, page) = app.get_text(&format!("/d/{notes}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(leads_to(&page, &site, "redesign"), "{page}");
    assert!(leads_to(&page, &site, "the new site"), "{page}");
    assert!(
        page.contains(&format!("href=\"/d/{site}#h-mockup\"")),
        "to the heading: {page}"
    );
    let (_, page) = app.get_text(&format!("/d/{site}")).await;
    assert!(
        page.contains(&format!("<li><a href=\"/d/{notes}\">Notes</a></li>")),
        "a backlink by alias: {page}"
    );
    assert!(
        !page.contains("aliases") && !page.contains("Web 2.0"),
        "{page}"
    );
    let res = app.get("/go?to=Web%202.0").await;
    assert_eq!(location(&res), format!("/d/{site}"));

    // A link written before the alias existed finds it once it does.
    let (_, page) = app.get_text(&format!("/d/{early}")).await;
    assert!(page.contains("wikilink missing"), "{page}");
    let body2 = body.replace("  - Redesign\n", "  - Redesign\n  - Roadmap\n");
    let (status, _) = api
        .put(
            &site,
            1,
            json!({"title": "Website redesign", "body": body2}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = app.get_text(&format!("/d/{early}")).await;
    assert!(leads_to(&page, &site, "Roadmap"), "{page}");

    // A document titled as someone's alias takes links by that name.
    let titled = id_of(
        &api.create(json!({"title": "Redesign", "body": "the other one"}))
            .await,
    );
    let (_, page) = app.get_text(&format!("/d/{notes}")).await;
    assert!(
        leads_to(&page, &titled, "redesign"),
        "a title first: {page}"
    );
    assert!(leads_to(&page, &site, "the new site"), "{page}");

    // In the trash, its aliases lead nowhere; restored, they lead to it again.
    let res = app.post_form(&format!("/d/{site}/delete"), &[]).await;
    assert!(res.status().is_redirection());
    let (_, page) = app.get_text(&format!("/d/{notes}")).await;
    assert!(!page.contains(&format!("/d/{site}")), "{page}");
    let res = app.post_form(&format!("/d/{site}/restore"), &[]).await;
    assert!(res.status().is_redirection(), "{}", res.status());
    let (_, page) = app.get_text(&format!("/d/{notes}")).await;
    assert!(leads_to(&page, &site, "the new site"), "{page}");
}

#[tokio::test]
async fn an_alias_of_a_document_the_reader_may_not_read_leads_nowhere() {
    let app = spawn_app().await;
    let api = Api::new(&app).await;
    let (_, _, secret) = someone_elses_private_document(
        &app,
        "bob",
        &[
            ("title", "Bob private"),
            ("body", "---\naliases: [Acquisition]\n---\nhush"),
        ],
    )
    .await;
    let mine = id_of(
        &api.create(json!({"title": "Mine", "body": "[[Acquisition]]"}))
            .await,
    );
    let (_, page) = app.get_text(&format!("/d/{mine}")).await;
    assert!(page.contains("wikilink missing"), "{page}");
    assert!(!page.contains(&secret), "{page}");
    let res = app.get("/go?to=Acquisition").await;
    assert_eq!(location(&res), "/new?title=Acquisition");
}

/// A vault zipped as Finder and Explorer zip a folder: its notes go in as that
/// folder's contents, so its path links and aliases lead where they did.
#[tokio::test]
async fn a_vault_zipped_in_its_folder_keeps_its_path_links_and_aliases() {
    let app = spawn_app().await;
    let zip = crate::transfer::make_zip(&[
        (
            "My vault/Projects/Garden/Tomatoes.md",
            b"---\naliases: [Toms]\n---\nRed ones.\n",
        ),
        (
            "My vault/Inbox.md",
            b"See [[Projects/Garden/Tomatoes|the plan]] and [[toms]].\n",
        ),
    ]);
    let (status, html) =
        crate::transfer_upload::upload(&app.client, &app.address, Some(&app.csrf), &zip).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Every note was in the folder"), "{html}");
    let (_, list) = app.get_text("/?folder=Projects/Garden").await;
    assert!(list.contains(">Tomatoes<"), "{list}");
    let id_of = |list: &str, title: &str| {
        let at = list.find(&format!(">{title}<")).expect(title);
        let start = list[..at].rfind("/d/").unwrap() + 3;
        list[start..start + 26].to_owned()
    };
    let tomatoes = id_of(&list, "Tomatoes");
    let (_, all) = app.get_text("/").await;
    let inbox = id_of(&all, "Inbox");
    let (_, page) = app.get_text(&format!("/d/{inbox}")).await;
    assert!(leads_to(&page, &tomatoes, "the plan"), "{page}");
    assert!(leads_to(&page, &tomatoes, "toms"), "{page}");
}
