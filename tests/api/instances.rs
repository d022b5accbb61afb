//! Several `quire serve` processes on one PostgreSQL database, as behind a load
//! balancer: sessions, rate limits and saves hold across them. PostgreSQL only
//! (`QUIRE_TEST_POSTGRES`); a SQLite file belongs to one process.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::{StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::{
    PASSWORD, anonymous, cookies_of, fresh_postgres_database, postgres_server_or_skip, sign_in,
    signed_in_with_jar,
};

/// A real `quire serve` process, killed when dropped.
pub struct Instance {
    child: Child,
    address: String,
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn serve(url: &str) -> Instance {
    serve_with(url, &[]).await
}

/// `serve` with more settings.
pub async fn serve_with(url: &str, settings: &[(&str, String)]) -> Instance {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("serve")
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .env("QUIRE_DATABASE_URL", url)
        .env("QUIRE_BIND", format!("127.0.0.1:{port}"))
        .env("QUIRE_LOG", "warn")
        .env("QUIRE_WORKERS", "2")
        .stdout(Stdio::null())
        .spawn()
        .expect("starting quire serve");
    let instance = Instance {
        child,
        address: format!("http://127.0.0.1:{port}"),
    };
    let started = Instant::now();
    loop {
        let ready = reqwest::get(format!("{}/readyz", instance.address)).await;
        if matches!(ready, Ok(r) if r.status() == StatusCode::OK) {
            return instance;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "quire serve on {port} never became ready"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Two instances on one fresh database with the admin `alice`.
async fn two_instances(test: &str) -> Option<(Instance, Instance)> {
    let server = postgres_server_or_skip(test)?;
    let url = fresh_postgres_database(&server).await;
    let mut config = quire::config::Config::from_env();
    config.database_url = url.clone();
    let db = quire::db::Db::open(&config).await.expect("migrating");
    quire::accounts::create_user(&db, "alice", PASSWORD, true)
        .await
        .expect("the admin");
    db.close().await;
    Some((serve(&url).await, serve(&url).await))
}

#[tokio::test]
async fn a_session_started_on_one_instance_works_and_ends_on_the_other() {
    let Some((a, b)) =
        two_instances("a_session_started_on_one_instance_works_and_ends_on_the_other").await
    else {
        return;
    };
    let (client, jar, csrf) = signed_in_with_jar(&a.address, "alice").await;

    // Written on B, read on A, with the session A started.
    let res = client
        .post(format!("{}/docs", b.address))
        .form(&[("title", "Shared"), ("body", "made on B"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "create on B");
    let path = res.headers()[header::LOCATION].to_str().unwrap().to_owned();
    let page = client
        .get(format!("{}{path}", a.address))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("made on B"));
    // B has the session and the page in its cache now.
    for _ in 0..2 {
        let page = client.get(format!("{}{path}", b.address)).send().await;
        assert_eq!(page.unwrap().status(), StatusCode::OK);
    }

    // Signing out on A ends the session on B too, within a second: the old
    // cookie, sent again as someone who kept it would, is refused there.
    let kept = cookies_of(&jar, &a.address);
    let res = client
        .post(format!("{}/logout", a.address))
        .form(&[("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let stranger = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let started = Instant::now();
    for target in [format!("{}{path}", b.address), format!("{}/", b.address)] {
        loop {
            let res = stranger
                .get(&target)
                .header(header::COOKIE, kept.clone())
                .send()
                .await
                .unwrap();
            if res.status() == StatusCode::SEE_OTHER {
                let to = res.headers()[header::LOCATION].to_str().unwrap();
                assert!(to.starts_with("/login"), "{to}");
                break;
            }
            assert_eq!(res.status(), StatusCode::OK);
            assert!(
                started.elapsed() < Duration::from_secs(1),
                "B still let the session in after 1 s ({target})"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn failed_sign_ins_count_across_instances() {
    let Some((a, b)) = two_instances("failed_sign_ins_count_across_instances").await else {
        return;
    };
    let (client, csrf) = anonymous(&a.address).await;
    let attempt = |address: String, password: &'static str| {
        let (client, csrf) = (client.clone(), csrf.clone());
        async move {
            client
                .post(format!("{address}/login"))
                .form(&[
                    ("username", "alice"),
                    ("password", password),
                    ("csrf", &csrf),
                ])
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    for i in 0..10 {
        let on = if i % 2 == 0 { &a } else { &b };
        assert_eq!(
            attempt(on.address.clone(), "not the password").await,
            StatusCode::UNAUTHORIZED
        );
    }
    // Five failures on each: the account's limit (10) is reached on both.
    for on in [&a, &b] {
        assert_eq!(
            attempt(on.address.clone(), PASSWORD).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

#[tokio::test]
async fn racing_saves_on_two_instances_never_lose_an_acknowledged_write() {
    let Some((a, b)) =
        two_instances("racing_saves_on_two_instances_never_lose_an_acknowledged_write").await
    else {
        return;
    };
    let (client, csrf) = sign_in(&a.address, "alice", PASSWORD).await;
    let token = crate::helpers::api_token(&a.address, &client, &csrf).await;
    let api = |address: &str, method: reqwest::Method, path: &str| {
        reqwest::Client::new()
            .request(method, format!("{address}/api/v1/documents{path}"))
            .bearer_auth(&token)
    };
    let created: Value = api(&a.address, reqwest::Method::POST, "")
        .json(&json!({"title": "Race", "body": "v1"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();

    // Each round, both instances try to write on top of the same version at once.
    let mut acknowledged = Vec::new();
    for version in 1..=10 {
        let put = |address: &str, body: String| {
            api(address, reqwest::Method::PUT, &format!("/{id}"))
                .header(header::IF_MATCH, format!("\"{version}\""))
                .json(&json!({"title": "Race", "body": body}))
                .send()
        };
        let (ra, rb) = tokio::join!(
            put(&a.address, format!("A{version}")),
            put(&b.address, format!("B{version}"))
        );
        let statuses = [ra.unwrap().status(), rb.unwrap().status()];
        let won: Vec<usize> = (0..2).filter(|&i| statuses[i] == StatusCode::OK).collect();
        assert_eq!(won.len(), 1, "round {version}: {statuses:?}");
        let loser = statuses[1 - won[0]];
        assert_eq!(loser, StatusCode::PRECONDITION_FAILED, "round {version}");
        acknowledged.push(format!("{}{version}", ["A", "B"][won[0]]));
    }

    // Every acknowledged write is in the history, in order, read from either side.
    for on in [&a, &b] {
        let doc: Value = api(&on.address, reqwest::Method::GET, &format!("/{id}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(doc["version"], 11);
        assert_eq!(doc["body"], acknowledged[9].as_str());
    }
    // Revision 1 is the creation; round n's winner is revision n + 1, on both.
    for (i, body) in acknowledged.iter().enumerate() {
        let rev = i + 2;
        for on in [&a, &b] {
            let page = client
                .get(format!("{}/d/{id}/r/{rev}", on.address))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            assert!(
                page.contains(&format!("<p>{body}</p>")),
                "revision {rev} holds the acknowledged {body}:\n{page}"
            );
        }
    }
}

#[tokio::test]
async fn a_share_revoked_on_one_instance_ends_on_the_other_within_a_second() {
    let test = "a_share_revoked_on_one_instance_ends_on_the_other_within_a_second";
    let Some((a, b)) = two_instances(test).await else {
        return;
    };
    let (alice, csrf) = sign_in(&a.address, "alice", PASSWORD).await;
    let res = alice
        .post(format!("{}/admin/users", a.address))
        .form(&[("username", "bob"), ("password", PASSWORD), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "bob created");
    let res = alice
        .post(format!("{}/docs", a.address))
        .form(&[
            ("title", "Plans"),
            ("body", "for bob, for now"),
            ("space", "personal"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    let location = res.headers()[header::LOCATION].to_str().unwrap();
    let path = location.split('?').next().unwrap_or(location).to_owned();
    let share = |fields: Vec<(&'static str, String)>| {
        let (alice, csrf, url) = (
            alice.clone(),
            csrf.clone(),
            format!("{}{path}/share", a.address),
        );
        async move {
            let mut fields = fields;
            fields.push(("csrf", csrf));
            let res = alice.post(url).form(&fields).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::SEE_OTHER);
        }
    };
    share(vec![
        ("action", "share".into()),
        ("username", "bob".into()),
        ("role", "read".into()),
    ])
    .await;
    let (bob, _) = sign_in(&b.address, "bob", PASSWORD).await;
    for _ in 0..2 {
        let page = bob
            .get(format!("{}{path}", b.address))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::OK);
    }

    let page = alice
        .get(format!("{}{path}/share", a.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let bob_id = page
        .split(r#"name="user_id" value=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("bob's share")
        .to_owned();
    share(vec![("action", "unshare".into()), ("user_id", bob_id)]).await;
    let started = Instant::now();
    loop {
        let res = bob
            .get(format!("{}{path}", b.address))
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::NOT_FOUND {
            break;
        }
        assert_eq!(res.status(), StatusCode::OK);
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "B still showed the page after 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
