//! The upgrade to team spaces keeps every right: a database the release before
//! them made (tests/fixtures/release-0018.db, by
//! tests/fixtures/make-release-0018-db.py, which also recorded in
//! release-0018.json who could read and edit what, as that release answered)
//! upgrades at start, and each person reads and edits exactly what they did.

use std::collections::{BTreeMap, BTreeSet};

use quire::config::Config;
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{anonymous, api_token, new_client, on_postgres, sign_in, start};

const RECORDED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/release-0018.json"
));

/// The documents open to everyone signed in to edit before the upgrade (the
/// one without an owner is named in the JSON): they move to the team space.
const OPEN_TO_EDIT: [&str; 4] = [
    "Ada team handbook",
    "Cy open wiki",
    "Di meeting minutes",
    "Ed open checklist",
];

/// Titles, as a set, from a JSON array of strings.
fn titles(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .expect("an array of titles")
        .iter()
        .map(|t| t.as_str().expect("a title").to_owned())
        .collect()
}

/// What a signed-in person reads and edits, seen as the fixture's script saw it:
/// the titles in their whole document list (every page, no filter) whose page
/// answers 200, and of those the ones whose edit page answers 200.
async fn rights_of(
    address: &str,
    client: &reqwest::Client,
    csrf: &str,
    name: &str,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let token = api_token(address, client, csrf).await;
    let mut listed = BTreeMap::new();
    for page in 1.. {
        let res = client
            .get(format!("{address}/api/v1/documents?page={page}"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{name}'s list, page {page}");
        let answer: Value = res.json().await.unwrap();
        for row in answer["documents"].as_array().expect("documents") {
            let title = row["title"].as_str().expect("title").to_owned();
            let id = row["id"].as_str().expect("id").to_owned();
            assert!(
                listed.insert(title.clone(), id).is_none(),
                "{name}'s list has {title:?} twice"
            );
        }
        if answer["more"] != Value::Bool(true) {
            break;
        }
    }
    let (mut read, mut edit) = (BTreeSet::new(), BTreeSet::new());
    for (title, id) in listed {
        let status = |path: String| async move {
            client
                .get(format!("{address}{path}"))
                .send()
                .await
                .unwrap()
                .status()
        };
        if status(format!("/d/{id}")).await == StatusCode::OK {
            if status(format!("/d/{id}/edit")).await == StatusCode::OK {
                edit.insert(title.clone());
            }
            read.insert(title);
        }
    }
    (read, edit)
}

/// "bo may now edit: [..]" and the like, for what differs.
fn differences(
    name: &str,
    what: &str,
    before: &BTreeSet<String>,
    after: &BTreeSet<String>,
) -> Vec<String> {
    let gained: Vec<_> = after.difference(before).collect();
    let lost: Vec<_> = before.difference(after).collect();
    let mut out = Vec::new();
    if !gained.is_empty() {
        out.push(format!("{name} may now {what}: {gained:?}"));
    }
    if !lost.is_empty() {
        out.push(format!("{name} may no longer {what}: {lost:?}"));
    }
    out
}

#[tokio::test]
async fn upgrading_to_team_spaces_keeps_who_reads_and_edits_each_document() {
    if on_postgres() {
        return;
    }
    let recorded: Value = serde_json::from_str(RECORDED).unwrap();
    let password = recorded["password"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("quire.db");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/release-0018.db"
        ),
        &file,
    )
    .unwrap();
    let mut config = Config::from_env();
    config.bind = "127.0.0.1:0".into();
    config.database_url = format!("sqlite://{}", file.display());
    config.workers = 2;
    // Migrates the file; adds the admin alice, whom the fixture does not know.
    let app = start(config, dir).await;
    let address = app.address.as_str();

    let users = recorded["users"].as_object().unwrap();
    assert_eq!(users.len(), 4, "ada, bo, cy and di sign in");
    let mut wrong = Vec::new();
    for (name, before) in users {
        let (client, csrf) = sign_in(address, name, password).await;
        let (read, edit) = rights_of(address, &client, &csrf, name).await;
        wrong.extend(differences(name, "read", &titles(&before["read"]), &read));
        wrong.extend(differences(name, "edit", &titles(&before["edit"]), &edit));
    }
    assert!(
        wrong.is_empty(),
        "the upgrade changed rights:\n{}",
        wrong.join("\n")
    );

    // A disabled account still cannot sign in.
    for name in titles(&recorded["disabled"]) {
        let (client, csrf) = anonymous(address).await;
        let res = client
            .post(format!("{address}/login"))
            .form(&[
                ("username", name.as_str()),
                ("password", password),
                ("csrf", &csrf),
                ("next", "/"),
            ])
            .send()
            .await
            .unwrap();
        assert_ne!(res.status(), StatusCode::SEE_OTHER, "{name} signed in");
    }

    // The public links that worked still work, for someone not signed in, and
    // no other does.
    let links: Vec<(String, String)> = quire::db::query_as(
        "SELECT title, public_token FROM documents WHERE public_token IS NOT NULL",
    )
    .fetch_all(&app.db.read)
    .await
    .unwrap();
    let stranger = new_client();
    let mut public = BTreeSet::new();
    for (title, token) in links {
        let res = stranger
            .get(format!("{address}/p/{token}"))
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::OK {
            public.insert(title);
        }
    }
    let before = titles(&recorded["public"]);
    assert_eq!(
        public,
        before,
        "public links: {:?}",
        differences("a stranger", "read", &before, &public)
    );

    // Those open to everyone to edit, and the one without an owner, are in the
    // team space; every other document stays in its owner's personal space.
    let team: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Team'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let ownerless = recorded["ownerless"].as_str().unwrap();
    let placed: Vec<(String, Option<i64>)> =
        quire::db::query_as("SELECT title, space_id FROM documents ORDER BY title")
            .fetch_all(&app.db.read)
            .await
            .unwrap();
    assert!(placed.len() > OPEN_TO_EDIT.len() + 1, "{placed:?}");
    for (title, space) in &placed {
        let in_team = OPEN_TO_EDIT.contains(&title.as_str()) || title == ownerless;
        let expected = in_team.then_some(team);
        assert_eq!(
            *space, expected,
            "{title:?} is in space {space:?}, not {expected:?}"
        );
    }
    for title in OPEN_TO_EDIT.iter().chain([&ownerless]) {
        assert!(
            placed.iter().any(|(t, _)| t == title),
            "{title:?} is in the fixture"
        );
    }
}
