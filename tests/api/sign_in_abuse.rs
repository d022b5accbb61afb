//! Floods of sign-ins: counted before any password is checked, hashed a few at a
//! time, and an account under attack slows down instead of locking its owner out.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, anonymous, spawn_app};

async fn attempt(
    app: &TestApp,
    client: &reqwest::Client,
    csrf: &str,
    password: &str,
) -> StatusCode {
    client
        .post(format!("{}/login", app.address))
        .form(&[
            ("username", "alice"),
            ("password", password),
            ("csrf", csrf),
        ])
        .send()
        .await
        .expect("POST /login")
        .status()
}

#[tokio::test]
async fn a_flood_of_simultaneous_wrong_passwords_is_checked_at_most_up_to_the_limit() {
    let app = spawn_app().await;
    let (client, csrf) = anonymous(&app.address).await;

    let flood = (0..150).map(|_| attempt(&app, &client, &csrf, "not the password"));
    let health = async {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let started = std::time::Instant::now();
        let res = reqwest::get(format!("{}/healthz", app.address))
            .await
            .expect("GET /healthz");
        (res.status(), started.elapsed())
    };
    let (statuses, (health, took)) = tokio::join!(futures::future::join_all(flood), health);

    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    // Ten free failures, then one attempt per backoff step (1 s, 2 s, ...): a
    // flood that takes a few seconds may earn one or two more, never 150.
    assert!(checked <= 12, "{checked} passwords were checked");
    assert_eq!(checked + refused, 150, "{statuses:?}");
    assert_eq!(health, StatusCode::OK);
    assert!(took.as_millis() < 2000, "/healthz took {took:?}");
}

#[tokio::test]
async fn an_account_under_attack_lets_its_owner_in_after_a_short_wait_not_fifteen_minutes() {
    let app = spawn_app().await;
    let (client, csrf) = anonymous(&app.address).await;
    for _ in 0..12 {
        attempt(&app, &client, &csrf, "not the password").await;
    }
    assert_eq!(
        attempt(&app, &client, &csrf, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS,
        "right after the failures the account rests"
    );

    // A minute passes (the failures are moved back rather than the test waiting).
    quire::db::query("UPDATE login_failures SET at = at - 61000")
        .execute(&app.db.write)
        .await
        .expect("moving the clock");

    assert_eq!(
        attempt(&app, &client, &csrf, PASSWORD).await,
        StatusCode::SEE_OTHER,
        "the right password gets in"
    );
}
