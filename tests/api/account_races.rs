//! Two requests about one account at the same moment: administrators acting on
//! each other (an active administrator always remains), and a script writing
//! while its account is deleted (refused as signed out, never a 500).

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, sign_in, spawn_app};
use quire::accounts::{self, people, tokens};

/// An administrator in a browser of their own.
struct Admin {
    id: i64,
    name: String,
    client: reqwest::Client,
    csrf: String,
}

impl Admin {
    async fn signed_in(app: &TestApp, name: &str) -> Self {
        let id = quire::db::query_scalar("SELECT id FROM users WHERE username = $1")
            .bind(name)
            .fetch_one(&app.db.read)
            .await
            .expect("the user's id");
        let (client, csrf) = sign_in(&app.address, name, PASSWORD).await;
        Self {
            id,
            name: name.to_owned(),
            client,
            csrf,
        }
    }

    async fn new(app: &TestApp, name: &str) -> Self {
        accounts::create_user(&app.db, name, PASSWORD, true)
            .await
            .expect("a new administrator");
        Self::signed_in(app, name).await
    }

    /// The people page's action `fields` on account `on`: its status.
    async fn act(&self, app: &TestApp, on: i64, fields: &[(&str, &str)]) -> StatusCode {
        let mut fields = fields.to_vec();
        fields.push(("csrf", &self.csrf));
        self.client
            .post(format!("{}/admin/users/{on}", app.address))
            .form(&fields)
            .send()
            .await
            .expect("POST /admin/users/{id}")
            .status()
    }
}

async fn active_admins(app: &TestApp) -> Vec<String> {
    quire::db::query_scalar(
        "SELECT username FROM users WHERE is_admin = 1 AND disabled_at IS NULL ORDER BY id",
    )
    .fetch_all(&app.db.read)
    .await
    .expect("the active administrators")
}

/// What a request refused by the race may answer: done (303), no longer an
/// administrator when it arrived (403), or refused inside the write (422).
fn answered(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::SEE_OTHER | StatusCode::FORBIDDEN | StatusCode::UNPROCESSABLE_ENTITY
    )
}

async fn both_admins_again(app: &TestApp) {
    quire::db::query("UPDATE users SET is_admin = 1, disabled_at = NULL")
        .execute(&app.db.write)
        .await
        .expect("both administrators again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_admins_demoting_each_other_at_once_leave_one_admin() {
    let app = spawn_app().await;
    let alice = Admin::signed_in(&app, "alice").await;
    let bob = Admin::new(&app, "bob").await;
    for round in 0..50 {
        let (a, b) = tokio::join!(
            alice.act(&app, bob.id, &[("action", "demote")]),
            bob.act(&app, alice.id, &[("action", "demote")]),
        );
        assert!(answered(a) && answered(b), "round {round}: {a} {b}");
        let left = active_admins(&app).await;
        assert_eq!(left.len(), 1, "round {round}: {a} {b} left {left:?}");
        both_admins_again(&app).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_admins_disabling_each_other_at_once_leave_one_admin() {
    let app = spawn_app().await;
    let mut alice = Admin::signed_in(&app, "alice").await;
    let mut bob = Admin::new(&app, "bob").await;
    for round in 0..25 {
        let (a, b) = tokio::join!(
            alice.act(&app, bob.id, &[("action", "disable")]),
            bob.act(&app, alice.id, &[("action", "disable")]),
        );
        assert!(answered(a) && answered(b), "round {round}: {a} {b}");
        let left = active_admins(&app).await;
        assert_eq!(left.len(), 1, "round {round}: {a} {b} left {left:?}");
        both_admins_again(&app).await;
        // Disabling ended the sessions of whoever was disabled.
        if left[0] == alice.name {
            bob = Admin::signed_in(&app, "bob").await;
        } else {
            alice = Admin::signed_in(&app, "alice").await;
        }
    }
}

/// One deletes the other while being demoted by them: whichever runs second
/// would take the last administrator away.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_admin_deleting_another_who_demotes_them_at_once_leaves_an_admin() {
    let app = spawn_app().await;
    let mut keeper = Admin::signed_in(&app, "alice").await;
    for round in 0..30 {
        let other = Admin::new(&app, &format!("admin{round}")).await;
        let heir = keeper.id.to_string();
        let delete = [("action", "delete"), ("heir", &heir), ("confirm", "yes")];
        let (a, b) = tokio::join!(
            keeper.act(&app, other.id, &delete),
            other.act(&app, keeper.id, &[("action", "demote")]),
        );
        assert!(answered(a) && answered(b), "round {round}: {a} {b}");
        let left = active_admins(&app).await;
        assert_eq!(left.len(), 1, "round {round}: {a} {b} left {left:?}");
        // The next round starts again from one administrator, the one left.
        let loser = if left[0] == keeper.name {
            other.id
        } else {
            std::mem::replace(&mut keeper, other).id
        };
        quire::db::query("DELETE FROM users WHERE id = $1")
            .bind(loser)
            .execute(&app.db.write)
            .await
            .expect("the other account gone");
    }
}

/// Scripts create documents with the account's token while an administrator
/// deletes the account: each create is done (201) or refused as signed out
/// (401), whichever side of the deletion it falls on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn api_creates_racing_the_deletion_of_their_account_are_never_a_500() {
    let app = spawn_app().await;
    let admin = quire::db::accounts::User {
        id: quire::db::query_scalar("SELECT id FROM users WHERE username = 'alice'")
            .fetch_one(&app.db.read)
            .await
            .expect("the admin's id"),
        username: "alice".into(),
        is_admin: true,
        unread: 0,
    };
    let url = format!("{}/api/v1/documents", app.address);
    let mut seen = std::collections::BTreeMap::<u16, usize>::new();
    for round in 0..20 {
        let user = accounts::create_user(&app.db, &format!("script{round}"), PASSWORD, false)
            .await
            .expect("the script's account");
        let token = tokens::create(&app.db, &user, "script")
            .await
            .expect("a token");
        let scripts = (0..6).map(|_| {
            let (url, token) = (url.clone(), token.clone());
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut statuses = Vec::new();
                loop {
                    let status = client
                        .post(&url)
                        .bearer_auth(&token)
                        .json(&serde_json::json!({"title": "From a script", "body": "hello"}))
                        .send()
                        .await
                        .expect("POST /api/v1/documents")
                        .status();
                    statuses.push(status);
                    if status != StatusCode::CREATED || statuses.len() > 200 {
                        return statuses;
                    }
                }
            })
        });
        let scripts: Vec<_> = scripts.collect();
        // The deletion comes while the scripts are creating: once the first
        // document is in (however fast the account would otherwise be gone).
        for _ in 0..1000 {
            let made: i64 =
                quire::db::query_scalar("SELECT count(*) FROM documents WHERE owner_id = $1")
                    .bind(user.id)
                    .fetch_one(&app.db.read)
                    .await
                    .expect("count the script's documents");
            if made > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        people::delete(&app.db, &admin, user.id, admin.id)
            .await
            .expect("the account is deleted");
        for script in scripts {
            let statuses = script.await.expect("the script ran");
            for status in &statuses {
                *seen.entry(status.as_u16()).or_default() += 1;
            }
            assert!(
                statuses
                    .iter()
                    .all(|s| matches!(*s, StatusCode::CREATED | StatusCode::UNAUTHORIZED)),
                "round {round}: {statuses:?}"
            );
        }
    }
    assert!(
        seen.contains_key(&201) && seen.contains_key(&401),
        "{seen:?}"
    );
}
