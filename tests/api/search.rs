use reqwest::StatusCode;

use crate::helpers::{TestApp, metric, on_postgres, spawn_app};

async fn found(app: &TestApp, q: &str) -> String {
    let res = app
        .client
        .get(format!("{}/search", app.address))
        .query(&[("q", q)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "query {q:?}");
    res.text().await.unwrap()
}

#[tokio::test]
async fn words_prefixes_and_phrases_are_found_with_title_hits_first() {
    let app = spawn_app().await;
    app.create_document("Shopping list", "buy apples and garden tools")
        .await;
    app.create_document("Garden plan", "tomatoes by the fence")
        .await;

    let html = found(&app, "garden").await;
    let title_hit = html
        .find("<mark>Garden</mark> plan")
        .expect("title hit, the word marked in the title");
    let body_hit = html.find("Shopping list").expect("body hit");
    assert!(title_hit < body_hit, "title hits rank above body hits");
    assert!(html.contains("<mark>garden</mark>"));

    assert!(found(&app, "tomat").await.contains("Garden plan"), "prefix");
    let phrase = found(&app, "\"garden tools\"").await;
    assert!(phrase.contains("Shopping list") && !phrase.contains("Garden plan"));
    assert!(
        found(&app, "\"tools garden\"")
            .await
            .contains("Nothing found")
    );
}

#[tokio::test]
async fn parts_of_words_accents_and_cjk_are_found() {
    let app = spawn_app().await;
    app.create_document("Café notes", "the naïve approach to sourdough")
        .await;
    app.create_document("仕様", "全文検索システムの設計").await;

    assert!(
        found(&app, "urdou").await.contains("Café notes"),
        "substring"
    );
    assert!(
        found(&app, "cafe")
            .await
            .contains("<mark>Café</mark> notes"),
        "accents"
    );
    assert!(found(&app, "naive").await.contains("Café notes"));
    assert!(
        found(&app, "検索").await.contains("仕様"),
        "two CJK characters"
    );
    assert!(found(&app, "システム").await.contains("仕様"));
    assert!(
        found(&app, "検").await.contains("仕様"),
        "one CJK character"
    );
}

#[tokio::test]
async fn a_part_of_a_word_is_found_only_where_its_letters_stand_together() {
    let app = spawn_app().await;
    app.create_document("Scattered", "an abc and a bcd, a garden and a ledger")
        .await;
    app.create_document("Adjacent", "the bookkeeping in gardenledger.txt")
        .await;
    app.create_document("Spaced", "the garden ledger book")
        .await;
    app.create_document("Notes on rdenle", "in the title only")
        .await;
    // The index is given each word once, so here `garden` stands before
    // `party` and nothing spans "garden ledger" there.
    app.create_document("Repeated", "a garden party, the ledger; then garden ledger")
        .await;

    // Every trigram of "bcd"+"abc" is in "Scattered", the sequence is not.
    let page = found(&app, "abcd").await;
    assert!(page.contains("Nothing found"), "{page}");
    let page = found(&app, "rdenle").await;
    assert!(page.contains("Adjacent"), "{page}");
    assert!(!page.contains("Scattered"), "{page}");
    // A hit in the title comes before a hit in the text.
    assert!(
        page.find("Notes on rdenle") < page.find("Adjacent"),
        "title first: {page}"
    );
    // A quoted phrase inside words keeps its space.
    let page = found(&app, "\"rden ledg\"").await;
    assert!(page.contains("Spaced"), "{page}");
    assert!(page.contains("Repeated"), "{page}");
    assert!(
        !page.contains("Adjacent") && !page.contains("Scattered"),
        "{page}"
    );
}

#[tokio::test]
async fn search_follows_edits_and_skips_the_trash() {
    let app = spawn_app().await;
    let id = app.create_document("Memo", "zebra crossing").await;
    app.save(&id, "Memo", "giraffe crossing", 1).await;

    assert!(found(&app, "zebra").await.contains("Nothing found"));
    assert!(found(&app, "giraffe").await.contains("Memo"));

    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    assert!(found(&app, "giraffe").await.contains("Nothing found"));
}

/// The search page for `q`: its status (500 when the engine refused a query) and
/// whether the target document was found.
async fn searched(app: &TestApp, q: &str) -> (StatusCode, bool) {
    let res = app
        .client
        .get(format!("{}/search", app.address))
        .query(&[("q", q)])
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.text().await.unwrap().contains("Target"))
}

#[tokio::test]
async fn hostile_queries_run_without_an_engine_error_and_match_their_words() {
    let app = spawn_app().await;
    app.create_document("Target", "some ordinary text with NEAR and OR in it")
        .await;
    // Each query's words (letters and digits only) are in the target, so the
    // syntax around them must be taken as plain text, not dropped or obeyed.
    let matching = [
        "\"ordinary",
        "\"ordinary text",
        "ordinary*",
        "text**",
        "NEAR",
        "NEAR(ordinary text",
        "ordinary NEAR text",
        "AND OR",
        "text -",
        "text:ordinary",
        "text : ordinary",
        "{some text}: ordinary",
        "^ordinary",
        "(ordinary",
        "ordinary)",
        "'; ordinary; --",
        "%' OR 'text'='",
        "text 🎉",
        "\\ordinary\\",
        "\"ordinary text\" with",
    ];
    for q in matching {
        assert_eq!(searched(&app, q).await, (StatusCode::OK, true), "{q:?}");
    }
    // A word after `-` is one the documents found must not hold.
    for q in ["-ordinary", "text -ordinary", "text -\"ordinary text\""] {
        assert_eq!(searched(&app, q).await, (StatusCode::OK, false), "{q:?}");
    }
    let junk = "x\u{0}y%$#@!\"'`;".repeat(800);
    let corpus = [
        "\"",
        "\"\"",
        "\"unbalanced quote",
        "*",
        "**",
        "a*b*",
        "NEAR",
        "NEAR(a b, 3)",
        "ordinary NEAR text",
        "AND OR NOT",
        "-ordinary",
        "text -",
        "title:ordinary",
        "body : text",
        "{title body}: text",
        "^ordinary",
        "(ordinary",
        "ordinary)",
        "'; DROP TABLE documents; --",
        "1 OR 1=1",
        "%' OR '1'='1",
        "\\",
        "🎉🔥💯",
        "text 🎉",
        "ﾃｷｽﾄ",
        "\u{202e}reversed",
        &junk,
        "   ",
    ];
    for q in corpus {
        let (status, _) = searched(&app, q).await;
        assert_eq!(status, StatusCode::OK, "{q:?} ran without an engine error");
    }
    let (_, home) = app.get_text("/").await;
    assert!(home.contains("Target"), "the table is still there");
}

#[tokio::test]
async fn a_failing_search_query_is_an_error_on_the_page_and_in_metrics() {
    let app = spawn_app().await;
    app.create_document("Target", "ordinary text").await;
    let errors = || metric(&app, "quire_search_errors_total");
    let before = errors().await;
    // Break the word index under the running app, as a bug in the SQL would.
    let break_it = if on_postgres() {
        "ALTER TABLE document_search RENAME COLUMN words TO words_gone"
    } else {
        "DROP TABLE documents_words"
    };
    quire::db::query(break_it)
        .execute(&app.db.write)
        .await
        .unwrap();

    let res = app
        .client
        .get(format!("{}/search?q=ordinary", app.address))
        .send()
        .await
        .unwrap();

    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert!(res.text().await.unwrap().contains("This was logged"));
    // Other tests share the process-wide counter, so it may have grown more.
    assert!(errors().await > before);
}

#[tokio::test]
async fn live_search_gets_only_the_results_fragment() {
    let app = spawn_app().await;
    app.create_document("Htmx page", "live results").await;

    let res = app
        .client
        .get(format!("{}/search?q=live", app.address))
        .header("HX-Request", "true")
        .header("HX-Target", "results")
        .send()
        .await
        .unwrap();

    let html = res.text().await.unwrap();
    assert!(html.contains("Htmx page"));
    assert!(
        !html.contains("<form"),
        "no second search box inside the results"
    );
    let page = found(&app, "live").await;
    assert!(page.starts_with("<!doctype html>") && page.contains(r#"value="live""#));
}

#[tokio::test]
async fn a_user_finds_their_old_documents_by_a_common_word_among_many_newer_ones_of_others() {
    const PASSWORD: &str = "bob's long password";
    let app = spawn_app().await;
    let bob = quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap()
        .id;
    let carol = quire::accounts::create_user(&app.db, "carol", PASSWORD, false)
        .await
        .unwrap()
        .id;
    let mut old = Vec::new();
    for n in 1..=2 {
        old.push(
            app.create_document(&format!("Meadow notes by bob {n}"), "the ox in the meadow")
                .await,
        );
    }
    quire::db::query("UPDATE documents SET owner_id = $1 WHERE id = $2 OR id = $3")
        .bind(bob)
        .bind(&old[0])
        .bind(&old[1])
        .execute(&app.db.write)
        .await
        .unwrap();
    // More newer private documents of someone else holding the word than
    // search ranks (500). The word has two letters: too short for the pass
    // that looks inside words, so only the ranked pass can find bob's.
    let newer: Vec<_> = (0..520)
        .map(|n| {
            quire::documents::Valid::parse(&format!("Admin {n}"), "an ox, a field", 1 << 20)
                .unwrap()
        })
        .collect();
    quire::documents::create_batch(&app.db, newer)
        .await
        .unwrap();
    quire::db::query("UPDATE documents SET owner_id = $1 WHERE owner_id IS NULL")
        .bind(carol)
        .execute(&app.db.write)
        .await
        .unwrap();
    // Both engines index after the commit: the search is asked once the
    // indexer has taken everything in.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while quire::db::search::queue::queued(&app.db).await.unwrap() > 0 {
        assert!(std::time::Instant::now() < deadline, "still indexing");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    let address = app.address.clone();
    let search_as = |name: &'static str| {
        let address = address.clone();
        async move {
            let (client, _) = crate::helpers::sign_in(&address, name, PASSWORD).await;
            client
                .get(format!("{address}/search"))
                .query(&[("q", "ox")])
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    let page = search_as("bob").await;
    assert!(
        page.contains("Meadow notes by bob 1") && page.contains("Meadow notes by bob 2"),
        "{page}"
    );
    assert!(
        !page.contains("Admin 1"),
        "others' private documents stay out"
    );
    let theirs = search_as("carol").await;
    assert!(
        theirs.contains(">Admin "),
        "their owner finds theirs: {theirs}"
    );
    assert!(!theirs.contains("Meadow notes by bob"), "{theirs}");
}
