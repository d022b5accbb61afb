//! Search snippets stay short whatever the documents hold: a page of results for
//! documents of long space-free text (base64, URLs, CJK) stays small.
//! Before, each snippet ran to 4,096 characters past the match.

use reqwest::StatusCode;

use crate::helpers::spawn_app;

#[tokio::test]
async fn snippets_of_text_without_spaces_keep_a_results_page_under_200_kb() {
    let app = spawn_app().await;
    // A full page of fifty hits, each a word then 10,000 characters (30 KB) with
    // no space in them.
    for i in 0..50 {
        let body = format!("needle {}", "漢字".repeat(5_000 + i));
        app.create_document(&format!("Blob {i}"), &body).await;
    }
    let res = app
        .client
        .get(format!("{}/search", app.address))
        .query(&[("q", "needle")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("Blob 49") && page.contains("Blob 0"),
        "all found"
    );
    assert!(page.len() < 200_000, "the page is {} bytes", page.len());
}

#[tokio::test]
async fn snippets_show_the_text_without_its_markdown() {
    let app = spawn_app().await;
    let body = "## Greenhouse\n\nWater the **orchids** with `rain water`, see \
                [the guide](https://example.org/orchid-care).\n\n\
                | plant | days |\n| --- | ---: |\n| orchid | 7 |\n\n\
                ```sh\nwater --orchids\n```\n";
    app.create_document("Plants", body).await;
    for q in ["orchids", "greenhouse", "guide", "days"] {
        let page = app
            .client
            .get(format!("{}/search", app.address))
            .query(&[("q", q)])
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let start = page.find("class=\"snippet\"").expect("a snippet");
        let snippet = &page[start..start + page[start..].find("</p>").unwrap()];
        assert!(snippet.contains("<mark>"), "{q}: {snippet}");
        for syntax in ["##", "**", "`", "|", "](", "https://example.org", "---"] {
            assert!(!snippet.contains(syntax), "{q}: {syntax:?} in {snippet}");
        }
    }
}

/// A search reads the start of each hit's text for its snippet; a match further
/// in (past the start read, or with its window cut by it) is still shown, on
/// both ways a word is found (whole words, parts of words).
#[tokio::test]
async fn a_match_far_into_a_long_document_is_shown_in_its_snippet() {
    let app = spawn_app().await;
    let filler = "alpha beta gamma delta ".repeat(2_000); // 46,000 characters
    app.create_document("Far", &format!("{filler}the rhubarbcrumble recipe"))
        .await;
    // The match ends a few characters before 8,192: its window does not fit.
    let near = "alpha beta ".repeat(744); // 8,184 characters
    app.create_document(
        "Edge",
        &format!("{near}quincejam and more words to follow here"),
    )
    .await;
    for (q, doc, word) in [
        ("rhubarbcrumble", "Far", "rhubarbcrumble"),
        ("barbcrum", "Far", "barbcrum"),
        ("quincejam", "Edge", "quincejam"),
    ] {
        let page = app
            .client
            .get(format!("{}/search", app.address))
            .query(&[("q", q)])
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(page.contains(doc), "{q}: {doc} found");
        let start = page.find("class=\"snippet\"").expect("a snippet");
        let snippet = &page[start..start + page[start..].find("</p>").unwrap()];
        assert!(
            snippet.contains(&format!("<mark>{word}</mark>")),
            "{q}: {snippet}"
        );
    }
}
