//! Saves based on an old version: merged when the changes don't overlap, a merge
//! view with every text when they do, and no acknowledged edit ever lost.

use futures::future::join_all;
use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, location, sign_in, spawn_app, textareas};

const BASE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

/// alice's document, shared for editing with bob; bob's client and CSRF token.
async fn shared_with_bob(app: &TestApp) -> (String, reqwest::Client, String) {
    let id = app.create_document("Plan", BASE).await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "share"), ("username", "bob"), ("role", "edit")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (bob, csrf) = sign_in(&app.address, "bob", PASSWORD).await;
    (id, bob, csrf)
}

async fn bob_saves(app: &TestApp, bob: &reqwest::Client, csrf: &str, id: &str, body: &str) {
    let res = bob
        .post(format!("{}/d/{id}", app.address))
        .form(&[
            ("title", "Plan"),
            ("body", body),
            ("version", "1"),
            ("csrf", csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn concurrent_edits_to_different_lines_merge_and_the_history_shows_both_authors() {
    let app = spawn_app().await;
    let (id, bob, csrf) = shared_with_bob(&app).await;
    bob_saves(
        &app,
        &bob,
        &csrf,
        &id,
        &BASE.replace("two\n", "two, by bob\n"),
    )
    .await;

    let res = app
        .save(&id, "Plan", &BASE.replace("six\n", "six, by alice\n"), 1)
        .await;

    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), format!("/d/{id}?m=merged"));
    let (_, page) = app.get_text(&location(&res)).await;
    assert!(
        page.contains("two, by bob") && page.contains("six, by alice"),
        "{page}"
    );
    assert!(page.contains("version 3"));
    assert!(page.contains("quire merged"), "the user is told: {page}");
    let (_, history) = app.get_text(&format!("/d/{id}/history")).await;
    assert!(
        history.contains("by bob") && history.contains("by alice"),
        "{history}"
    );
}

#[tokio::test]
async fn an_htmx_save_that_merged_announces_it() {
    let app = spawn_app().await;
    let id = app.create_document("Plan", BASE).await;
    app.save(&id, "Plan", &BASE.replace("one\n", "ONE\n"), 1)
        .await;

    let body = BASE.replace("seven\n", "SEVEN\n");
    let res = app
        .post_htmx(
            &format!("/d/{id}"),
            &[("title", "Plan"), ("body", &body), ("version", "1")],
        )
        .await;

    assert_eq!(res.status(), StatusCode::OK);
    let trigger = res.headers()["hx-trigger"].to_str().unwrap().to_owned();
    assert!(trigger.contains("merged"), "{trigger}");
}

#[tokio::test]
async fn overlapping_edits_show_the_merge_view_with_both_texts_and_write_nothing() {
    let app = spawn_app().await;
    let (id, bob, csrf) = shared_with_bob(&app).await;
    let theirs = BASE
        .replace("four\n", "four, as bob wrote it\n")
        .replace("one\n", "ONE\n");
    bob_saves(&app, &bob, &csrf, &id, &theirs).await;
    let mine = BASE
        .replace("four\n", "four, as alice wrote it\n")
        .replace("seven\n", "SEVEN\n");

    let res = app.save(&id, "Plan", &mine, 1).await;

    assert_eq!(res.status(), StatusCode::CONFLICT);
    let html = res.text().await.unwrap();
    assert!(html.contains("Conflict 1 of 1"), "{html}");
    // The page names who saved meanwhile.
    assert!(html.contains("bob saved “Plan”"), "{html}");
    let areas = textareas(&html);
    let merged = "ONE\ntwo\nthree\n<<<<<<< your text\nfour, as alice wrote it\n=======\n\
                  four, as bob wrote it\n>>>>>>> version 2\nfive\nsix\nSEVEN\n";
    assert!(areas.contains(&merged.to_string()), "{areas:?}");
    assert!(areas.contains(&mine), "the user's whole text: {areas:?}");
    assert!(areas.contains(&theirs), "their whole text: {areas:?}");
    assert!(html.contains(r#"name="version" value="2""#));
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(page.contains("version 2") && page.contains("as bob wrote it"));

    assert!(html.contains(r#"name="resolving" value="merge""#));
    let res = app
        .post_form(
            &format!("/d/{id}"),
            &[
                ("title", "Plan"),
                ("body", merged),
                ("version", "2"),
                ("resolving", "merge"),
            ],
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "markers left in"
    );
    let again = res.text().await.unwrap();
    assert!(again.contains("still has conflict markers"));
    assert_eq!(
        textareas(&again),
        vec![merged.to_string()],
        "the text comes back"
    );
    assert!(
        !again.contains("resolving"),
        "saving again keeps it as it is"
    );

    let resolved = merged
        .replace("<<<<<<< your text\n", "")
        .replace("=======\n", "")
        .replace(">>>>>>> version 2\n", "");
    let res = app.save(&id, "Plan", &resolved, 2).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), format!("/d/{id}?m=saved"));
}

#[tokio::test]
async fn both_titles_changed_differently_is_a_conflict_that_keeps_mine() {
    let app = spawn_app().await;
    let id = app.create_document("Plan", BASE).await;
    app.save(&id, "Their plan", BASE, 1).await;

    let res = app.save(&id, "My plan", BASE, 1).await;

    assert_eq!(res.status(), StatusCode::CONFLICT);
    let html = res.text().await.unwrap();
    assert!(html.contains("Their plan") && html.contains(r#"value="My plan""#));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_saves_from_one_version_never_lose_an_acknowledged_edit() {
    let app = spawn_app().await;
    let base: String = (0..40).map(|i| format!("line {i}\n")).collect();
    let id = app.create_document("Race", &base).await;

    // Eight writers edit lines far apart, two more rewrite line 0 differently.
    let edits: Vec<(usize, String)> = (1..9)
        .map(|w| (w * 4, format!("line {} edited by writer {w}\n", w * 4)))
        .chain([(0, "line 0 by x\n".into()), (0, "line 0 by y\n".into())])
        .collect();
    let saves = edits.iter().map(|(line, text)| {
        let body = base.replace(&format!("line {line}\n"), text);
        let (app, id) = (&app, &id);
        async move { (app.save(id, "Race", &body, 1).await, text.clone(), body) }
    });
    let results = join_all(saves).await;

    let (_, page) = app.get_text(&format!("/d/{id}/edit")).await;
    let final_text = textareas(&page).remove(0);
    let mut acknowledged = 0;
    for (res, text, body) in results {
        match res.status() {
            StatusCode::SEE_OTHER => {
                acknowledged += 1;
                assert!(final_text.contains(&text), "lost {text:?}:\n{final_text}");
            }
            StatusCode::CONFLICT => {
                let html = res.text().await.unwrap();
                assert!(
                    textareas(&html).contains(&body),
                    "the refused text comes back"
                );
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert!(
        acknowledged >= 9,
        "only the rival rewrites of line 0 may conflict"
    );
    assert!(page.contains(&format!(r#"name="version" value="{}""#, acknowledged + 1)));
}

#[tokio::test]
async fn the_json_api_keeps_strict_if_match_even_when_a_merge_would_work() {
    let app = spawn_app().await;
    let id = app.create_document("Plan", BASE).await;
    app.save(&id, "Plan", &BASE.replace("one\n", "ONE\n"), 1)
        .await;
    let page = app
        .post_form("/account/tokens", &[("name", "script")])
        .await
        .text()
        .await
        .unwrap();
    let start = page.find("qt_").expect("the token is shown once");
    let token = &page[start..start + 67];

    let res = reqwest::Client::new()
        .put(format!("{}/api/v1/documents/{id}", app.address))
        .bearer_auth(token)
        .header("If-Match", "\"1\"")
        .json(&serde_json::json!({"title": "Plan", "body": BASE.replace("seven\n", "7\n")}))
        .send()
        .await
        .unwrap();

    assert_eq!(res.status(), StatusCode::PRECONDITION_FAILED);
}
