//! Groups through the JSON API: an administrator makes one and fills it, a
//! space takes it as a member, and its people read what the space holds until
//! they are taken out; nobody else may change it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, api_token, sign_in, spawn_app};

/// One request of `token`'s to the API, with a JSON body if any.
async fn send(
    api: &reqwest::Client,
    method: Method,
    url: &str,
    token: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut req = api.request(method, url).bearer_auth(token);
    if let Some(body) = body {
        req = req.json(&body);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn a_group_made_through_the_api_gives_its_people_a_space_and_takes_it_away() {
    let app = spawn_app().await;
    let api = reqwest::Client::new();
    let admin = api_token(&app.address, &app.client, &app.csrf).await;
    quire::accounts::create_user(&app.db, "bea", PASSWORD, false)
        .await
        .unwrap();
    let (bea_client, bea_csrf) = sign_in(&app.address, "bea", PASSWORD).await;
    let bea = api_token(&app.address, &bea_client, &bea_csrf).await;
    let url = |path: &str| format!("{}/api/v1{path}", app.address);

    // A space nobody joins by default, with one document in it.
    let space: Value = send(
        &api,
        Method::POST,
        &url("/spaces"),
        &admin,
        Some(json!({"name": "Research"})),
    )
    .await
    .json()
    .await
    .unwrap();
    let space_id = space["id"].as_i64().unwrap();
    let doc: Value = send(
        &api,
        Method::POST,
        &url("/documents"),
        &admin,
        Some(json!({"title": "Lab notes", "body": "pH 7", "space": space_id})),
    )
    .await
    .json()
    .await
    .unwrap();
    let doc_url = url(&format!("/documents/{}", doc["id"].as_str().unwrap()));
    let bea_reads = || async {
        let res = send(&api, Method::GET, &doc_url, &bea, None).await;
        res.status()
    };
    assert_eq!(bea_reads().await, StatusCode::NOT_FOUND);

    // Only an administrator makes groups.
    let refused = send(
        &api,
        Method::POST,
        &url("/groups"),
        &bea,
        Some(json!({"name": "Chemists"})),
    )
    .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let made = send(
        &api,
        Method::POST,
        &url("/groups"),
        &admin,
        Some(json!({"name": "Chemists"})),
    )
    .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let group: Value = made.json().await.unwrap();
    assert_eq!(group["name"], "Chemists");
    assert_eq!(group["people"], 0);
    let gid = group["id"].as_i64().unwrap();
    let taken = send(
        &api,
        Method::POST,
        &url("/groups"),
        &admin,
        Some(json!({"name": "chemists"})),
    )
    .await;
    assert_eq!(taken.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let members = url(&format!("/groups/{gid}/members"));
    let by_bea = send(
        &api,
        Method::PUT,
        &members,
        &bea,
        Some(json!({"name": "bea"})),
    )
    .await;
    assert_eq!(by_bea.status(), StatusCode::FORBIDDEN);
    let nobody = send(
        &api,
        Method::PUT,
        &members,
        &admin,
        Some(json!({"name": "nobody-here"})),
    )
    .await;
    assert_eq!(nobody.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // A name nobody could have (PostgreSQL refuses to compare a NUL) is
    // nobody's, in a group or a space.
    for url in [members.clone(), url(&format!("/spaces/{space_id}/members"))] {
        let odd = send(
            &api,
            Method::PUT,
            &url,
            &admin,
            Some(json!({"name": "be\u{0}a", "role": "read"})),
        )
        .await;
        assert_eq!(odd.status(), StatusCode::UNPROCESSABLE_ENTITY, "{url}");
    }
    let added = send(
        &api,
        Method::PUT,
        &members,
        &admin,
        Some(json!({"name": "bea"})),
    )
    .await;
    assert_eq!(added.status(), StatusCode::NO_CONTENT);
    let listed: Value = send(&api, Method::GET, &members, &bea, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listed["members"].as_array().unwrap().len(), 1);
    assert_eq!(listed["members"][0]["name"], "bea");
    let bea_id = listed["members"][0]["id"].as_i64().unwrap();
    let all: Value = send(&api, Method::GET, &url("/groups"), &bea, None)
        .await
        .json()
        .await
        .unwrap();
    let chemists = all["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == gid)
        .expect("the group is listed");
    assert_eq!(chemists["people"], 1);

    // In the group alone, bea still reads nothing of the space; with the
    // group a member, she does.
    assert_eq!(bea_reads().await, StatusCode::NOT_FOUND);
    let joined = send(
        &api,
        Method::PUT,
        &url(&format!("/spaces/{space_id}/members")),
        &admin,
        Some(json!({"name": "Chemists", "role": "read"})),
    )
    .await;
    assert_eq!(joined.status(), StatusCode::NO_CONTENT);
    assert_eq!(bea_reads().await, StatusCode::OK);

    // Out of the group, out of the space.
    let gone = url(&format!("/groups/{gid}/members/{bea_id}"));
    let by_bea = send(&api, Method::DELETE, &gone, &bea, None).await;
    assert_eq!(by_bea.status(), StatusCode::FORBIDDEN);
    assert_eq!(bea_reads().await, StatusCode::OK);
    let removed = send(&api, Method::DELETE, &gone, &admin, None).await;
    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert_eq!(bea_reads().await, StatusCode::NOT_FOUND);
    let again = send(&api, Method::DELETE, &gone, &admin, None).await;
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    let text = again.text().await.unwrap();
    assert!(text.contains("No such group or member"), "{text}");

    for bad in ["0", "x", "99999"] {
        let res = send(
            &api,
            Method::GET,
            &url(&format!("/groups/{bad}/members")),
            &admin,
            None,
        )
        .await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{bad}");
        assert_eq!(res.headers()["content-type"], "application/json", "{bad}");
    }
}
