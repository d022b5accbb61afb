//! Search narrowed to one space: the search page's space choice (and its URL,
//! `?space=`) finds only what that space holds, with words or filters alone,
//! and never more than the searcher may read. The `[[` suggestions offer the
//! linking document's space first.

use reqwest::StatusCode;

use crate::helpers::pages::hit_titles as hits;
use crate::helpers::{PASSWORD, TestApp, member_of, sign_in, spawn_app};

async fn make(app: &TestApp, title: &str, space: &str) {
    let mut fields = vec![
        ("title", title),
        ("body", "marigold seeds"),
        ("tags", "seeds"),
    ];
    if !space.is_empty() {
        fields.push(("space", space));
    }
    let made = app.post_form("/docs", &fields).await;
    assert_eq!(made.status(), StatusCode::SEE_OTHER, "{title}");
}

/// A space "Ops" nobody joins by default: its id.
async fn ops_space(app: &TestApp) -> i64 {
    let made = app
        .post_form("/spaces", &[("name", "Ops"), ("default_role", "")])
        .await;
    made.headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .and_then(|l| l.split('?').next())
        .and_then(|l| l.rsplit('/').next())
        .and_then(|n| n.parse::<i64>().ok())
        .expect("the new space's page")
}

#[tokio::test]
async fn a_search_narrowed_to_a_space_finds_only_what_that_space_holds() {
    let app = spawn_app().await;
    let ops = ops_space(&app).await;
    let team: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Team'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    make(&app, "Marigold team", "").await;
    make(&app, "Marigold mine", "personal").await;
    make(&app, "Marigold ops", &ops.to_string()).await;

    let search = |q: &str, space: String| {
        let path = format!("/search?q={q}&space={space}");
        let app = &app;
        async move {
            let (status, page) = app.get_text(&path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            let mut found = hits(&page);
            found.sort();
            (found, page)
        }
    };
    for q in ["marigold", "arigol", "tag:seeds"] {
        let (all, page) = search(q, String::new()).await;
        assert_eq!(
            all,
            ["Marigold mine", "Marigold ops", "Marigold team"],
            "{q}"
        );
        assert!(page.contains(r#"<select id="search-space" name="space""#));
        let (mine, _) = search(q, "personal".into()).await;
        assert_eq!(mine, ["Marigold mine"], "{q}");
        let (in_team, page) = search(q, team.to_string()).await;
        assert_eq!(in_team, ["Marigold team"], "{q}");
        assert!(
            page.contains(&format!(r#"<option value="{team}" selected>Team</option>"#)),
            "the choice is kept"
        );
        let (in_ops, _) = search(q, ops.to_string()).await;
        assert_eq!(in_ops, ["Marigold ops"], "{q}");
    }

    // Someone who is no member of Ops finds nothing there, even asking for it
    // by number; their own personal space holds none of alice's.
    quire::accounts::create_user(&app.db, "nils", PASSWORD, false)
        .await
        .unwrap();
    let (nils, _) = sign_in(&app.address, "nils", PASSWORD).await;
    for (space, expected) in [
        (ops.to_string(), vec![]),
        ("personal".to_owned(), vec![]),
        (team.to_string(), vec!["Marigold team".to_owned()]),
        (String::new(), vec!["Marigold team".to_owned()]),
    ] {
        let page = nils
            .get(format!("{}/search?q=marigold&space={space}", app.address))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(hits(&page), expected, "space {space:?}");
        assert!(
            !page.contains(r#">Ops</option>"#),
            "nils is no member of Ops"
        );
    }
}

#[tokio::test]
async fn link_suggestions_offer_the_linking_documents_space_first() {
    let app = spawn_app().await;
    let ops = ops_space(&app).await;
    // Alphabetically the team's and the personal one come first.
    make(&app, "Plan A", "").await;
    make(&app, "Plan B", "personal").await;
    make(&app, "Plan C", &ops.to_string()).await;
    let offered = |space: String| {
        let app = &app;
        async move {
            let (status, html) = app.get_text(&format!("/titles?q=plan&space={space}")).await;
            assert_eq!(status, StatusCode::OK);
            html.split("data-target=\"")
                .skip(1)
                .filter_map(|s| s.split('"').next())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(offered(String::new()).await, ["Plan A", "Plan B", "Plan C"]);
    assert_eq!(
        offered(ops.to_string()).await,
        ["Plan C", "Plan A", "Plan B"]
    );
    assert_eq!(
        offered("personal".into()).await,
        ["Plan B", "Plan A", "Plan C"]
    );
    assert_eq!(
        offered("nonsense".into()).await,
        ["Plan A", "Plan B", "Plan C"]
    );
    // The editor says which space: the new page's choice, an edited document's own.
    let (_, page) = app.get_text(&format!("/new?space={ops}")).await;
    assert!(page.contains(&format!(r#"<option value="{ops}" selected>Ops</option>"#)));
    let list = app.get_text(&format!("/?space={ops}")).await.1;
    let id = list
        .split("href=\"/d/")
        .nth(1)
        .map(|rest| rest[..26].to_owned())
        .expect("Plan C in the list");
    let (_, edit) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(edit.contains(&format!(r#"data-space="{ops}""#)), "{edit}");
}

/// The search page's spaces to choose from are kept between searches, and
/// follow every change at once: joining a space, its new name, leaving it.
#[tokio::test]
async fn the_spaces_to_search_in_follow_membership_and_names() {
    let app = spawn_app().await;
    let ops = ops_space(&app).await;
    let here = format!("/spaces/{ops}");
    quire::accounts::create_user(&app.db, "nils", PASSWORD, false)
        .await
        .unwrap();
    let (nils, _) = sign_in(&app.address, "nils", PASSWORD).await;
    let offered = |name: &'static str| {
        let (nils, app) = (&nils, &app);
        async move {
            // Twice: the second page is made with what the first kept.
            let mut seen = Vec::new();
            for _ in 0..2 {
                let res = nils
                    .get(format!("{}/search?q=marigold", app.address))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(res.status(), StatusCode::OK);
                let page = res.text().await.unwrap();
                seen.push(page.contains(&format!(">{name}</option>")));
            }
            assert_eq!(seen[0], seen[1], "{name}: both searches say the same");
            seen[0]
        }
    };
    // alice made Ops and searches in it first; what is kept for her is hers.
    let (_, page) = app.get_text("/search?q=marigold").await;
    assert!(page.contains(">Ops</option>"), "alice manages Ops");
    assert!(!offered("Ops").await, "nils is no member yet");

    let joined = app
        .post_form(
            &here,
            &[("action", "member"), ("name", "nils"), ("role", "read")],
        )
        .await;
    assert!(joined.status().is_redirection(), "{}", joined.status());
    assert!(offered("Ops").await, "a member may search it");

    let renamed = app
        .post_form(
            &here,
            &[
                ("action", "settings"),
                ("name", "Platform"),
                ("default_role", ""),
            ],
        )
        .await;
    assert!(renamed.status().is_redirection(), "{}", renamed.status());
    assert!(offered("Platform").await, "the new name");
    assert!(!offered("Ops").await, "not the old one");

    let page = app.get_text(&here).await.1;
    let member = member_of(&page, "nils");
    let removed = app
        .post_form(&here, &[("action", "remove"), ("member", &member)])
        .await;
    assert!(removed.status().is_redirection(), "{}", removed.status());
    assert!(!offered("Platform").await, "nils is no member any more");
}
