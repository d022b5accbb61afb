use crate::helpers::{TestApp, spawn_app};
use reqwest::StatusCode;

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    quire::db::query_scalar(sql)
        .fetch_one(&app.db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn every_save_appends_a_revision_listed_newest_first() {
    let app = spawn_app().await;
    let id = app.create_document("Recipe", "flour\nsugar\n").await;
    app.save(&id, "Recipe", "flour\nsugar\neggs\n", 1).await;
    app.save(&id, "Recipe v3", "flour\nbrown sugar\neggs\n", 2)
        .await;

    let (status, html) = app.get_text(&format!("/d/{id}/history")).await;

    assert_eq!(status, StatusCode::OK);
    let r3 = html.find("Revision 3").expect("rev 3 listed");
    let r1 = html.find("Revision 1").expect("rev 1 listed");
    assert!(r3 < r1, "newest first");
    assert!(html.contains("+1 −0 lines"), "{html}");
    assert!(html.contains("+1 −1 lines"));
    assert!(html.contains("created, 2 lines"));
}

#[tokio::test]
async fn an_old_revision_is_shown_rendered() {
    let app = spawn_app().await;
    let id = app.create_document("Notes", "# First draft").await;
    app.save(&id, "Notes", "# Second draft", 1).await;

    let (status, html) = app.get_text(&format!("/d/{id}/r/1")).await;

    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"<h1 id="h-first-draft">First draft<a"#));
    assert!(html.contains("Revision 1 of this document"));
    assert_eq!(
        app.get(&format!("/d/{id}/r/9")).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&format!("/d/{id}/r/abc")).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn diff_shows_removed_and_added_lines_with_changed_words() {
    let app = spawn_app().await;
    let id = app
        .create_document("Fox", "a\nthe quick brown fox\nz\n")
        .await;
    app.save(&id, "Fox", "a\nthe slow brown fox\nz\nnew last line\n", 1)
        .await;

    let (status, html) = app.get_text(&format!("/d/{id}/diff")).await;

    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Changes from revision 1 to 2"));
    assert!(html.contains(r#"<tr class="del">"#));
    assert!(html.contains(r#"<tr class="add">"#));
    assert!(html.contains("<mark>quick</mark>"), "{html}");
    assert!(html.contains("<mark>slow</mark>"));
    assert!(html.contains("new last line"));

    let (status, _) = app.get_text(&format!("/d/{id}/diff?from=2&to=1")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.get_text(&format!("/d/{id}/diff?from=1&to=7")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn restoring_an_old_revision_adds_a_new_one_and_loses_nothing() {
    let app = spawn_app().await;
    let id = app.create_document("Poem", "roses are red").await;
    app.save(&id, "Poem", "violets are blue", 1).await;

    let res = app.post_form(&format!("/d/{id}/r/1/restore"), &[]).await;

    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(page.contains("roses are red") && page.contains("version 3"));
    let (_, rev2) = app.get_text(&format!("/d/{id}/r/2")).await;
    assert!(rev2.contains("violets are blue"));
    // The restored text is the same body as revision 1: stored once.
    assert_eq!(count(&app, "SELECT count(*) FROM revision_texts").await, 2);
    assert_eq!(count(&app, "SELECT count(*) FROM revisions").await, 3);
    // So is a text saved again (the save learns it with the document).
    let res = app.save(&id, "Poem", "violets are blue", 3).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, rev4) = app.get_text(&format!("/d/{id}/r/4")).await;
    assert!(rev4.contains("violets are blue"));
    assert_eq!(count(&app, "SELECT count(*) FROM revision_texts").await, 2);
    assert_eq!(count(&app, "SELECT count(*) FROM revisions").await, 4);
}

#[tokio::test]
async fn history_survives_the_trash_and_goes_when_it_is_emptied() {
    let app = spawn_app().await;
    let id = app.create_document("Kept", "v1").await;
    app.save(&id, "Kept", "v2", 1).await;
    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    app.post_form(&format!("/d/{id}/restore"), &[]).await;

    let (_, html) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(html.contains("Revision 2") && html.contains("Revision 1"));

    app.post_form(&format!("/d/{id}/delete"), &[]).await;
    app.post_form("/trash/empty", &[("confirm", "yes")]).await;
    assert_eq!(count(&app, "SELECT count(*) FROM revisions").await, 0);
    assert_eq!(count(&app, "SELECT count(*) FROM revision_texts").await, 0);
}

#[tokio::test]
async fn a_long_history_reads_back_every_revision_exactly() {
    let app = spawn_app().await;
    let mut body: String = (0..200)
        .map(|i| format!("line {i} of the text\n"))
        .collect();
    let id = app.create_document("Long", &body).await;
    let mut versions = vec![body.clone()];
    for v in 1..=40 {
        body = body.replacen(&format!("line {v} "), &format!("LINE {v} "), 1);
        assert_eq!(
            app.save(&id, "Long", &body, v).await.status(),
            StatusCode::SEE_OTHER
        );
        versions.push(body.clone());
    }
    for (i, saved) in versions.iter().enumerate() {
        let rev = i as i64 + 1;
        let (title, text) = app.revision(&id, rev).await;
        assert_eq!(title, "Long", "revision {rev}");
        assert!(text == *saved, "revision {rev} differs from what was saved");
    }
    let snapshots = count(
        &app,
        "SELECT count(*) FROM revision_texts WHERE base IS NULL",
    )
    .await;
    assert_eq!(snapshots, 2, "a snapshot starts every 32 revisions");
}

#[tokio::test]
async fn any_two_revisions_compare_with_their_own_counts_and_the_whole_text_on_request() {
    let app = spawn_app().await;
    let lines: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let id = app.create_document("Range", &lines).await;
    let second = lines.replace("line 2\n", "line two\n");
    app.save(&id, "Range", &second, 1).await;
    let third = format!("{second}added a\nadded b\n");
    app.save(&id, "Range", &third, 2).await;

    // The history page chooses two revisions in two columns, the newest two
    // chosen first; the form is a plain GET of the diff page.
    let (_, html) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(html.contains(&format!(
        r#"<form id="compare" method="get" action="/d/{id}/diff""#
    )));
    let checked = |name: &str, rev: i64| {
        html.contains(&format!(
            r#"name="{name}" value="{rev}" id="{name}-{rev}" aria-label="Compare {name} revision {rev}" checked"#
        ))
    };
    assert!(checked("to", 3) && checked("from", 2), "{html}");
    assert!(!checked("from", 1) && !checked("to", 2));

    // 1 → 3: one line changed and two added, counted over the range (revision
    // 3 alone added two and removed none).
    let (status, html) = app.get_text(&format!("/d/{id}/diff?from=1&to=3")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("+3 −1 lines between them"), "{html}");
    assert!(
        html.contains(r#"<tr class="gap">"#),
        "only the changes: {html}"
    );
    assert!(!html.contains("line 20<"), "far lines left out: {html}");

    // The whole text, changes marked, on request.
    let (_, html) = app
        .get_text(&format!("/d/{id}/diff?from=1&to=3&whole=1"))
        .await;
    assert!(!html.contains(r#"<tr class="gap">"#), "{html}");
    assert!(
        html.contains("line 20<") && html.contains("added b"),
        "{html}"
    );
    assert!(html.contains(&format!(
        r#"<a href="/d/{id}/diff?from=1&amp;to=3">Changed lines</a>"#
    )));
}

#[tokio::test]
async fn two_revisions_compare_as_rendered_pages_with_blocks_marked() {
    let app = spawn_app().await;
    let old = "# Launch\n\nWe ship on *Monday*.\n\n- kept item\n";
    let id = app.create_document("Launch", old).await;
    let new = "# Launch\n\nWe ship on *Friday*.\n\n- kept item\n\n\
               <script>alert(1)</script><img src=x onerror=alert(2)>\n\n> [!WARNING]\n> Late\n";
    app.save(&id, "Launch", new, 1).await;
    let (status, html) = app
        .get_text(&format!("/d/{id}/diff?from=1&to=2&view=rendered"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let page = html
        .split("rendered-diff")
        .nth(1)
        .expect("the rendered page");
    let removed = page.split("<del class=\"block\">").nth(1).unwrap();
    assert!(removed.starts_with("<span class=\"visually-hidden\">Removed: </span>"));
    assert!(
        removed
            .split("</del>")
            .next()
            .unwrap()
            .contains("<em>Monday</em>")
    );
    let added: Vec<&str> = page.split("<ins class=\"block\">").skip(1).collect();
    assert!(added[0].contains("<em>Friday</em>"), "{page}");
    assert!(
        added.iter().any(|b| b.contains("callout")),
        "a callout renders: {page}"
    );
    assert!(page.contains("kept item"), "kept blocks show too");
    assert!(
        !page.contains("<script") && !page.contains("onerror"),
        "{page}"
    );
    assert!(html.contains("<strong aria-current=\"page\">Rendered page</strong>"));

    // Someone who may not read the document sees no comparison of it.
    let (bob, _, _) = crate::helpers::someone_elses_private_document(
        &app,
        "bob",
        &[("title", "x"), ("body", "y")],
    )
    .await;
    let res = bob
        .get(format!(
            "{}/d/{id}/diff?from=1&to=2&view=rendered",
            app.address
        ))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let body = res.text().await.unwrap();
    assert!(
        status == StatusCode::NOT_FOUND && !body.contains("Monday"),
        "{status}"
    );
}
