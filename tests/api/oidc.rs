//! OpenID Connect sign-in against a real provider (`tests/oidc/provider.js`):
//! accounts made and found again by the provider's subject, groups and
//! administrators following it, local passwords switched off, linking a local
//! account by its password, signing out at the provider, and the attacks a
//! relying party must refuse.

use quire::teams::Role;
use reqwest::{StatusCode, header};

use crate::helpers::idp::{sign_in_with_provider, through_provider, with_provider};
use crate::helpers::{ALICE, PASSWORD, TestApp, csrf_of, new_client, ops_space};

/// The page at `path` for `browser`: status and text.
async fn page(app: &TestApp, browser: &reqwest::Client, path: &str) -> (StatusCode, String) {
    let res = browser
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .expect("GET");
    (res.status(), res.text().await.expect("body"))
}

fn signed_in_as(page: &str, name: &str) -> bool {
    page.contains(&format!("<summary>{name}</summary>"))
}

fn location(res: &reqwest::Response) -> &str {
    res.headers()
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .unwrap_or_default()
}

/// A space only the group `eng` reads (a group made in quire, which the
/// provider's takes over), holding one document of alice's.
async fn eng_space(app: &TestApp) {
    let ops = ops_space(app).await;
    quire::teams::groups::create(&app.db, ALICE, "eng")
        .await
        .expect("the group eng");
    quire::teams::spaces::put_member(&app.db, ALICE, ops, "eng", Role::Read)
        .await
        .expect("eng reads Ops");
}

#[tokio::test]
async fn the_first_sign_in_makes_the_account_with_its_groups_and_the_next_finds_it() {
    let (app, idp) = with_provider(|_| {}).await;
    eng_space(&app).await;

    let browser = new_client();
    let res = sign_in_with_provider(&app, &browser, "carol").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), "/search", "back where the sign-in started");
    let (_, home) = page(&app, &browser, "/").await;
    assert!(signed_in_as(&home, "carol"), "{home}");
    assert!(home.contains("Runbook"), "eng reads Ops");
    let (status, _) = page(&app, &browser, "/admin/users").await;
    assert_eq!(status, StatusCode::OK, "wiki-admins makes an administrator");
    let groups = quire::teams::groups::list(&app.db).await.expect("groups");
    let kept: Vec<_> = groups
        .iter()
        .map(|g| (g.name.as_str(), g.managed_by.is_some()))
        .collect();
    assert_eq!(kept, [("eng", true), ("wiki-admins", true)]);

    // Out of eng and wiki-admins at the provider: the next sign-in, in
    // another browser, is the same account without them.
    idp.set_groups("carol", &["design"]);
    let other = new_client();
    let res = sign_in_with_provider(&app, &other, "carol").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, home) = page(&app, &other, "/").await;
    assert!(signed_in_as(&home, "carol"), "the same name, not carol-2");
    assert!(!home.contains("Runbook"), "eng left: Ops is gone");
    let (status, _) = page(&app, &other, "/admin/users").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "no longer an administrator");
    let (_, account) = page(&app, &other, "/account").await;
    assert!(account.contains("s-carol at http://127.0.0.1"), "{account}");
}

#[tokio::test]
async fn a_name_already_taken_gets_a_free_variant_and_an_unchecked_email_links_nothing() {
    // The provider's "alice" (email alice@example.org, unverified) is not
    // quire's alice: a new account, which reads none of alice's documents.
    let (app, _idp) = with_provider(|_| {}).await;
    let secret = app.create_document("Alice's diary", "private").await;
    let browser = new_client();
    let res = sign_in_with_provider(&app, &browser, "alice").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let (_, home) = page(&app, &browser, "/").await;
    assert!(signed_in_as(&home, "alice-2"), "{home}");
    assert!(!home.contains("Alice&#x27;s diary") && !home.contains("Alice's diary"));
    let (status, _) = page(&app, &browser, &format!("/d/{secret}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn without_account_creation_only_linked_people_get_in() {
    let (app, idp) = with_provider(|c| c.sign_in.oidc_create_accounts = false).await;
    let browser = new_client();
    let res = sign_in_with_provider(&app, &browser, "dave").await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let text = res.text().await.unwrap();
    assert!(text.contains("No quire account is linked to you"), "{text}");
    let (status, _) = page(&app, &browser, "/").await;
    assert_eq!(status, StatusCode::SEE_OTHER, "not signed in");

    // An administrator links dave's local account to the provider's dave.
    quire::accounts::create_user(&app.db, "dave", PASSWORD, false)
        .await
        .expect("dave");
    let url = app.config.database_url.clone();
    let link = [
        "user",
        "link",
        "dave",
        "--subject",
        "s-dave",
        "--issuer",
        &idp.issuer,
    ];
    let said = crate::helpers::quire(&url, &link).await;
    assert!(said.contains("linked dave to s-dave"), "{said}");
    let nobody = [
        "user",
        "link",
        "nobody",
        "--subject",
        "x",
        "--issuer",
        &idp.issuer,
    ];
    let nobody = crate::helpers::run_quire(&url, &nobody).await;
    let why = String::from_utf8_lossy(&nobody.stderr);
    assert!(why.contains("no account called nobody"), "{why}");
    let res = sign_in_with_provider(&app, &new_client(), "dave").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "linked: in");
}

#[tokio::test]
async fn a_local_account_is_linked_only_by_its_password() {
    let (app, _idp) = with_provider(|_| {}).await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .expect("bob");
    let (bob, csrf) = crate::helpers::sign_in(&app.address, "bob", PASSWORD).await;
    let (_, account) = page(&app, &bob, "/account").await;
    assert!(account.contains("Sign in with Test Provider"), "{account}");

    let wrong = bob
        .post(format!("{}/account/link-sign-in", app.address))
        .form(&[("password", "not-his-password"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);

    let right = bob
        .post(format!("{}/account/link-sign-in", app.address))
        .form(&[("password", PASSWORD), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(right.status(), StatusCode::SEE_OTHER);
    let callback = through_provider(&bob, location(&right), "bob").await;
    let back = bob.get(&callback).send().await.unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&back), "/account");
    let (_, account) = page(&app, &bob, "/account").await;
    assert!(account.contains("s-bob at"), "{account}");

    // From now on the provider's bob is quire's bob, not bob-2.
    let fresh = new_client();
    sign_in_with_provider(&app, &fresh, "bob").await;
    let (_, home) = page(&app, &fresh, "/").await;
    assert!(signed_in_as(&home, "bob"), "{home}");
}

#[tokio::test]
async fn with_local_passwords_off_only_the_provider_signs_in() {
    let (app, _idp) = with_provider(|c| c.sign_in.password_sign_in = false).await;
    let (status, login) = page(&app, &app.client, "/login").await;
    assert_eq!(status, StatusCode::OK);
    assert!(login.contains("Sign in with Test Provider"));
    assert!(!login.contains("type=\"password\""), "no password form");
    let res = app
        .client
        .post(format!("{}/login", app.address))
        .form(&[
            ("username", "alice"),
            ("password", PASSWORD),
            ("csrf", &csrf_of(&login)),
            ("next", "/"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let (status, _) = page(&app, &app.client, "/").await;
    assert_eq!(
        status,
        StatusCode::SEE_OTHER,
        "the right password signed nobody in"
    );
    let browser = new_client();
    sign_in_with_provider(&app, &browser, "dave").await;
    let (_, home) = page(&app, &browser, "/").await;
    assert!(signed_in_as(&home, "dave"));
}

#[tokio::test]
async fn signing_out_signs_out_at_the_provider_too() {
    let (app, idp) = with_provider(|_| {}).await;
    let browser = new_client();
    sign_in_with_provider(&app, &browser, "dave").await;
    let (_, home) = page(&app, &browser, "/").await;
    let out = browser
        .post(format!("{}/logout", app.address))
        .form(&[("csrf", csrf_of(&home))])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    let to = location(&out).to_owned();
    assert!(
        to.starts_with(&format!("{}/session/end", idp.issuer)),
        "{to}"
    );
    // The provider asks, then sends the browser back to quire's sign-in page.
    let ask = browser.get(&to).send().await.unwrap().text().await.unwrap();
    let xsrf = ask
        .split("name=\"xsrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("the provider's sign-out form");
    let done = browser
        .post(format!("{}/session/end/confirm", idp.issuer))
        .form(&[("xsrf", xsrf), ("logout", "yes")])
        .send()
        .await
        .unwrap();
    assert_eq!(location(&done), format!("{}/login", app.address));
    let (status, _) = page(&app, &browser, "/").await;
    assert_eq!(status, StatusCode::SEE_OTHER, "quire's session ended");
    // The provider's too: signing in again asks for the password.
    let start = browser
        .get(format!("{}/login/oidc", app.address))
        .send()
        .await
        .unwrap();
    let auth = browser.get(location(&start)).send().await.unwrap();
    let form = browser
        .get(format!("{}{}", idp.issuer, location(&auth)))
        .send()
        .await
        .unwrap();
    assert!(form.text().await.unwrap().contains("name=\"password\""));
}
