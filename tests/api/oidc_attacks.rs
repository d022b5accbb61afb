//! What OpenID Connect sign-in refuses: spoiled ID tokens (another key, `alg:
//! none`, another audience or issuer, expired, not yet valid, a missing or
//! another nonce), answers that belong to another sign-in or were used
//! already, redirects off the site, a planted session, a flood of answers, and
//! a provider that says no or cannot be reached.

use reqwest::{StatusCode, header};

use crate::helpers::idp::{sign_in_with_provider, through_provider, with_provider};
use crate::helpers::{TestApp, cookies_of, new_client, signed_in_with_jar, spawn_with};

fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// Whether `browser` is signed in at quire.
async fn signed_in(app: &TestApp, browser: &reqwest::Client) -> bool {
    let res = browser
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap();
    res.status() == StatusCode::OK
}

/// A sign-in as `login` taken as far as the provider's answer: the browser
/// (holding its flow cookie) and the callback URL, not yet opened.
async fn answered(app: &TestApp, login: &str, next: &str) -> (reqwest::Client, String) {
    let browser = new_client();
    let start = browser
        .get(format!("{}/login/oidc?next={next}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), StatusCode::SEE_OTHER);
    let callback = through_provider(&browser, &location(&start), login).await;
    (browser, callback)
}

#[tokio::test]
async fn spoiled_id_tokens_sign_nobody_in() {
    let (app, idp) = with_provider(|_| {}).await;
    for mode in [
        "other-key",
        "alg-none",
        "other-audience",
        "expired",
        "not-yet-valid",
        "other-issuer",
        "no-nonce",
        "other-nonce",
    ] {
        let (browser, callback) = answered(&app, "dave", "/").await;
        idp.tamper(mode).await;
        let res = browser.get(&callback).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{mode}");
        let page = res.text().await.unwrap();
        assert!(page.contains("answer was refused"), "{mode}: {page}");
        assert!(page.contains("Sign in with Test Provider"), "a way back");
        assert!(!signed_in(&app, &browser).await, "{mode}");
    }
    // The same flow unspoiled signs in: the refusals were the tokens'.
    let (browser, callback) = answered(&app, "dave", "/").await;
    let res = browser.get(&callback).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(signed_in(&app, &browser).await);
}

#[tokio::test]
async fn an_answer_counts_once_and_only_in_the_browser_that_asked() {
    let (app, _idp) = with_provider(|_| {}).await;

    // Another state than the one this browser was given.
    let (browser, callback) = answered(&app, "dave", "/").await;
    let forged = callback.replace("state=", "state=x");
    let res = browser.get(&forged).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(!signed_in(&app, &browser).await);

    // An attacker's own answer opened in someone else's browser (login CSRF).
    let (_attacker, theirs) = answered(&app, "dave", "/").await;
    let (victim, _mine) = answered(&app, "carol", "/").await;
    let res = victim.get(&theirs).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(!signed_in(&app, &victim).await, "not signed in as dave");

    // Used once: the same answer again, or in a browser without the flow.
    let (browser, callback) = answered(&app, "dave", "/").await;
    let res = browser.get(&callback).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let again = new_client().get(&callback).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    let replayed = browser.get(&callback).send().await.unwrap();
    assert_eq!(replayed.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn after_signing_in_the_browser_stays_on_the_site() {
    let (app, _idp) = with_provider(|_| {}).await;
    for next in [
        "//evil.example",
        "https://evil.example/",
        "/%09/evil.example",
    ] {
        let (browser, callback) = answered(&app, "dave", next).await;
        let res = browser.get(&callback).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{next}");
        assert_eq!(location(&res), "/", "{next}");
    }
    let (browser, callback) = answered(&app, "dave", "/search%3Fq%3Da").await;
    let res = browser.get(&callback).send().await.unwrap();
    assert_eq!(location(&res), "/search?q=a", "a path on the site is kept");
}

#[tokio::test]
async fn signing_in_makes_a_new_session_whatever_the_browser_brought() {
    let (app, _idp) = with_provider(|_| {}).await;
    // The browser comes with a session already (alice's, signed in): the
    // sign-in must not carry on with an id someone else may know.
    let (browser, jar, _) = signed_in_with_jar(&app.address, "alice").await;
    let before = cookies_of(&jar, &app.address).to_str().unwrap().to_owned();
    let res = sign_in_with_provider(&app, &browser, "dave").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let now = cookies_of(&jar, &app.address);
    let now = now.to_str().unwrap();
    let value = |c: &str| {
        c.split(';')
            .map(str::trim)
            .find(|c| c.starts_with("quire_session="))
            .map(str::to_owned)
    };
    let after = value(now).expect("a session cookie");
    assert!(value(&before).is_some());
    assert_ne!(Some(after), value(&before), "a new session id");
    let home = browser
        .get(format!("{}/", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(home.contains("<summary>dave</summary>"));
}

#[tokio::test]
async fn a_flood_of_answers_is_slowed_like_a_flood_of_passwords() {
    let (app, _idp) = with_provider(|_| {}).await;
    let (browser, callback) = answered(&app, "dave", "/").await;
    let forged = callback.replace("state=", "state=x");
    let mut statuses = Vec::new();
    for _ in 0..15 {
        statuses.push(browser.get(&forged).send().await.unwrap().status());
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn a_provider_that_says_no_or_is_away_gets_a_clear_page() {
    let (app, _idp) = with_provider(|_| {}).await;
    let (browser, callback) = answered(&app, "dave", "/").await;
    let state = callback
        .split("state=")
        .nth(1)
        .and_then(|s| s.split('&').next())
        .unwrap()
        .to_owned();
    let said_no = format!(
        "{}/login/oidc/callback?error=access_denied&error_description=Not+in+this+team&state={state}",
        app.address
    );
    let res = browser.get(&said_no).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("did not sign you in: Not in this team"),
        "{page}"
    );
    assert!(page.contains("Sign in with Test Provider"), "a way back");

    // Nothing listens at the issuer: the sign-in page says so.
    let away = spawn_with(|c| {
        c.sign_in.oidc_issuer = Some("http://127.0.0.1:9".into());
        c.sign_in.oidc_client_id = Some("quire".into());
    })
    .await;
    let res = new_client()
        .get(format!("{}/login/oidc", away.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_GATEWAY);
    let page = res.text().await.unwrap();
    assert!(page.contains("could not be asked"), "{page}");
}
