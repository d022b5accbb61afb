//! The permission matrix: each way of being granted a document (owner; a
//! space's manage, edit and read roles, given to the person or to a group; a
//! share with the person or a group; "everyone signed in"; an admin who is no
//! member; nobody; a disabled account) against each route that reads a
//! document (its page, the htmx partial, the editor, history, sharing, the
//! API) and each list that names documents (the API list, search, `[[`
//! titles, folder counts, backlinks, export): the expected status, and exactly
//! which documents each list shows. Runs on both engines.

use std::collections::BTreeSet;

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, api_token, location, member_of, sign_in, spawn_app};

/// Read, edit and own, as numbers: what each person has on each document.
const NONE: u8 = 0;
const READ: u8 = 1;
const EDIT: u8 = 2;
const OWN: u8 = 3;

const TITLES: [&str; 4] = ["Mx space", "Mx shared", "Mx everyone", "Mx private"];

/// Who has what, in `TITLES`' order.
const EXPECTED: &[(&str, [u8; 4])] = &[
    ("olga", [OWN, OWN, OWN, OWN]),
    ("mia", [EDIT, NONE, READ, NONE]),
    ("eddie", [EDIT, NONE, READ, NONE]),
    ("rita", [READ, NONE, READ, NONE]),
    ("gail", [EDIT, NONE, READ, NONE]),
    ("rob", [READ, NONE, READ, NONE]),
    ("sam", [NONE, READ, READ, NONE]),
    ("gus", [NONE, EDIT, READ, NONE]),
    ("nobody", [NONE, NONE, READ, NONE]),
    ("adam", [NONE, NONE, READ, NONE]),
];

struct Person {
    client: reqwest::Client,
    csrf: String,
    token: String,
}

async fn person(app: &TestApp, name: &str, admin: bool) -> Person {
    quire::accounts::create_user(&app.db, name, PASSWORD, admin)
        .await
        .unwrap();
    let (client, csrf) = sign_in(&app.address, name, PASSWORD).await;
    let token = api_token(&app.address, &client, &csrf).await;
    Person {
        client,
        csrf,
        token,
    }
}

impl Person {
    async fn get(&self, app: &TestApp, path: &str) -> (StatusCode, String) {
        let res = self
            .client
            .get(format!("{}{path}", app.address))
            .send()
            .await
            .unwrap();
        (res.status(), res.text().await.unwrap())
    }

    async fn htmx(&self, app: &TestApp, path: &str) -> StatusCode {
        self.client
            .get(format!("{}{path}", app.address))
            .header("HX-Request", "true")
            .send()
            .await
            .unwrap()
            .status()
    }

    async fn api(&self, app: &TestApp, path: &str) -> (StatusCode, serde_json::Value) {
        let res = self
            .client
            .get(format!("{}/api/v1{path}", app.address))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(serde_json::Value::Null))
    }

    async fn post(&self, app: &TestApp, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let mut form = fields.to_vec();
        form.push(("csrf", &self.csrf));
        self.client
            .post(format!("{}{path}", app.address))
            .form(&form)
            .send()
            .await
            .unwrap()
    }
}

/// The number at the end of a redirect's path (`/spaces/3?m=...` is 3).
fn made_id(res: &reqwest::Response) -> String {
    let path = location(res);
    let path = path.split('?').next().unwrap_or_default();
    path.rsplit('/').next().unwrap_or_default().to_owned()
}

async fn admin_post(app: &TestApp, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    let res = app.post_form(path, fields).await;
    assert!(
        res.status().is_redirection(),
        "{path} {fields:?}: {}",
        res.status()
    );
    res
}

/// Titles among `TITLES` found in a page or a JSON text.
fn titles_in(text: &str) -> BTreeSet<&'static str> {
    TITLES
        .iter()
        .copied()
        .filter(|t| text.contains(t))
        .collect()
}

fn readable(levels: &[u8; 4]) -> BTreeSet<&'static str> {
    TITLES
        .iter()
        .zip(levels)
        .filter(|(_, l)| **l >= READ)
        .map(|(t, _)| *t)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_grant_against_every_route_and_list_on_this_engine() {
    let app = spawn_app().await;
    let olga = person(&app, "olga", false).await;
    let mut people = Vec::new();
    for (name, _) in &EXPECTED[1..] {
        people.push(person(&app, name, *name == "adam").await);
    }
    let dis = person(&app, "dis", false).await;

    // Groups: gail edits the space through "Editors", rob reads it through
    // "Readers", gus edits one document through "Reviewers".
    let mut group_ids = Vec::new();
    for (group, member) in [
        ("Editors", "gail"),
        ("Readers", "rob"),
        ("Reviewers", "gus"),
    ] {
        let id = made_id(&admin_post(&app, "/admin/groups", &[("name", group)]).await);
        admin_post(
            &app,
            &format!("/admin/groups/{id}"),
            &[("action", "add"), ("name", member)],
        )
        .await;
        group_ids.push(id);
    }
    // A space nobody joins by default; alice made it, so she manages it, and
    // hands it to mia.
    let space =
        made_id(&admin_post(&app, "/spaces", &[("name", "Matrix"), ("default_role", "")]).await);
    let here = format!("/spaces/{space}");
    for (name, role) in [
        ("olga", "edit"),
        ("mia", "manage"),
        ("eddie", "edit"),
        ("rita", "read"),
        ("Editors", "edit"),
        ("Readers", "read"),
        ("dis", "edit"),
    ] {
        admin_post(
            &app,
            &here,
            &[("action", "member"), ("name", name), ("role", role)],
        )
        .await;
    }
    let page = app.get(&here).await.text().await.unwrap();
    let alice_member = member_of(&page, "alice");
    admin_post(
        &app,
        &here,
        &[("action", "remove"), ("member", &alice_member)],
    )
    .await;

    // Olga's documents, each in folder M, each linking to a hub all may read.
    let make = |title: &'static str, space: String| {
        let olga = &olga;
        let app = &app;
        async move {
            let res = olga
                .post(
                    app,
                    "/docs",
                    &[
                        ("title", title),
                        ("body", "matrixword links to [[Mx hub]]"),
                        ("folder", "M"),
                        ("space", &space),
                    ],
                )
                .await;
            assert_eq!(res.status(), StatusCode::SEE_OTHER, "{title}");
            made_id(&res)
        }
    };
    let ids = [
        make("Mx space", space.clone()).await,
        make("Mx shared", "personal".into()).await,
        make("Mx everyone", "personal".into()).await,
        make("Mx private", "personal".into()).await,
    ];
    let hub = make("Mx hub", "personal".into()).await;
    for (doc, fields) in [
        (
            &ids[1],
            vec![("action", "share"), ("username", "sam"), ("role", "read")],
        ),
        (
            &ids[1],
            vec![
                ("action", "share"),
                ("username", "Reviewers"),
                ("role", "edit"),
            ],
        ),
        (
            &ids[2],
            vec![("action", "visibility"), ("visibility", "read")],
        ),
        (&hub, vec![("action", "visibility"), ("visibility", "read")]),
    ] {
        let res = olga.post(&app, &format!("/d/{doc}/share"), &fields).await;
        assert!(
            res.status().is_redirection(),
            "{fields:?}: {}",
            res.status()
        );
    }
    // A disabled account keeps its membership, and its token stops working.
    let dis_id: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'dis'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    admin_post(
        &app,
        &format!("/admin/users/{dis_id}"),
        &[("action", "disable")],
    )
    .await;
    let (status, _) = dis.api(&app, &format!("/documents/{}", ids[0])).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a disabled account's token"
    );
    let (status, _) = dis.get(&app, &format!("/d/{}", ids[0])).await;
    assert!(
        status.is_redirection(),
        "a disabled account's session: {status}"
    );

    let everyone = std::iter::once(&olga).chain(people.iter());
    for ((name, levels), who) in EXPECTED.iter().zip(everyone) {
        for ((title, id), level) in TITLES.iter().zip(&ids).zip(levels) {
            let at = |what: &str| format!("{name} on {title}: {what}");
            let read = if *level >= READ {
                StatusCode::OK
            } else {
                StatusCode::NOT_FOUND
            };
            let changed = |need: u8| match *level {
                NONE => StatusCode::NOT_FOUND,
                l if l >= need => StatusCode::OK,
                _ => StatusCode::FORBIDDEN,
            };
            assert_eq!(
                who.get(&app, &format!("/d/{id}")).await.0,
                read,
                "{}",
                at("page")
            );
            assert_eq!(
                who.htmx(&app, &format!("/d/{id}")).await,
                read,
                "{}",
                at("partial")
            );
            assert_eq!(
                who.get(&app, &format!("/d/{id}/history")).await.0,
                read,
                "{}",
                at("history")
            );
            assert_eq!(
                who.api(&app, &format!("/documents/{id}")).await.0,
                read,
                "{}",
                at("API")
            );
            assert_eq!(
                who.get(&app, &format!("/d/{id}/edit")).await.0,
                changed(EDIT),
                "{}",
                at("editor")
            );
            assert_eq!(
                who.get(&app, &format!("/d/{id}/share")).await.0,
                changed(OWN),
                "{}",
                at("sharing")
            );
        }
        let expected = readable(levels);
        let (_, list) = who.api(&app, "/documents?folder=M").await;
        assert_eq!(
            titles_in(&list.to_string()),
            expected,
            "{name}: the API list"
        );
        let (_, found) = who.get(&app, "/search?q=matrixword").await;
        assert_eq!(titles_in(&found), expected, "{name}: search");
        let (_, offered) = who.get(&app, "/titles?q=Mx").await;
        assert_eq!(titles_in(&offered), expected, "{name}: [[ suggestions");
        let (_, hub_page) = who.get(&app, &format!("/d/{hub}")).await;
        assert_eq!(
            titles_in(&hub_page),
            expected,
            "{name}: backlinks on the hub"
        );
        let (_, folders) = who.api(&app, "/folders").await;
        let in_m = folders["folders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == "M")
            .map_or(0, |f| f["documents"].as_i64().unwrap());
        // The hub is in M too, and everyone reads it.
        assert_eq!(in_m as usize, expected.len() + 1, "{name}: folder count");
        let (_, home) = who.get(&app, "/?folder=M").await;
        assert_eq!(titles_in(&home), expected, "{name}: the list page");
        let zip = who
            .client
            .get(format!("{}/account/export", app.address))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
        let names: String = (0..zip.len())
            .map(|i| zip.by_index(i).unwrap().name().unwrap().into_owned() + "\n")
            .collect();
        // An export names each file after its title: `M/mx-space-<id>.md`.
        let exported: BTreeSet<&str> = TITLES
            .iter()
            .copied()
            .filter(|t| names.contains(&format!("/{}-", t.to_lowercase().replace(' ', "-"))))
            .collect();
        assert_eq!(exported, expected, "{name}: export {names}");
    }
}
