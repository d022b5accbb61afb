//! Single sign-on by a trusted proxy's header: a request from a trusted proxy
//! naming a person signs them in (their account made at the first request, the
//! provider's groups kept in step, administrators chosen by a group); from any
//! other address the header is ignored.

use quire::teams::{Manager, Role};
use reqwest::StatusCode;

use crate::helpers::{ALICE, PASSWORD, TestApp, new_client, ops_space, spawn_with};

async fn proxied(trusted: &str) -> TestApp {
    let trusted = trusted.to_owned();
    spawn_with(move |c| {
        c.trusted_proxies = trusted.parse().expect("cidr");
        c.auth_header = Some("Remote-User".into());
        c.auth_groups_header = Some("Remote-Groups".into());
        c.auth_admin_group = Some("wiki-admins".into());
    })
    .await
}

/// A page as the proxy passes it on for `user` in `groups`, from a browser
/// that keeps its cookies: its status and text.
async fn as_proxy(
    app: &TestApp,
    browser: &reqwest::Client,
    path: &str,
    user: &str,
    groups: &str,
) -> (StatusCode, String) {
    let res = browser
        .get(format!("{}{path}", app.address))
        .header("Remote-User", user)
        .header("Remote-Groups", groups)
        .send()
        .await
        .expect("request");
    (res.status(), res.text().await.expect("body"))
}

fn signed_in_as(page: &str, name: &str) -> bool {
    page.contains(&format!("<summary>{name}</summary>"))
}

/// A space only the group `eng` reads, holding one document of alice's.
async fn eng_space(app: &TestApp) {
    let ops = ops_space(app).await;
    // The group comes from the provider at carol's first sign-in.
    let browser = new_client();
    as_proxy(app, &browser, "/", "carol", "eng").await;
    quire::teams::spaces::put_member(&app.db, ALICE, ops, "eng", Role::Read)
        .await
        .expect("eng reads Ops");
}

#[tokio::test]
async fn the_proxy_names_the_person_and_their_groups_follow_it() {
    let app = proxied("127.0.0.1").await;
    eng_space(&app).await;
    let browser = new_client();

    let (status, page) = as_proxy(&app, &browser, "/", "carol", "eng, design").await;
    assert_eq!(status, StatusCode::OK);
    assert!(signed_in_as(&page, "carol"), "{page}");
    assert!(page.contains("Runbook"), "eng reads Ops");
    let groups = quire::teams::groups::list(&app.db).await.expect("groups");
    let names: Vec<_> = groups
        .iter()
        .map(|g| (g.name.as_str(), g.managed_by.is_some()))
        .collect();
    assert_eq!(names, [("design", true), ("eng", true)]);

    // Taken out of eng at the provider: the next request loses the space.
    let (_, page) = as_proxy(&app, &browser, "/", "carol", "design").await;
    assert!(signed_in_as(&page, "carol"));
    assert!(!page.contains("Runbook"), "eng left: Ops is gone");
    let (status, _) = as_proxy(&app, &browser, "/search?q=restart", "carol", "design").await;
    assert_eq!(status, StatusCode::OK);

    // The session the header made is an ordinary one: a form posts with it.
    let (_, page) = as_proxy(&app, &browser, "/", "carol", "design").await;
    let csrf = crate::helpers::csrf_of(&page);
    let made = browser
        .post(format!("{}/docs", app.address))
        .header("Remote-User", "carol")
        .header("Remote-Groups", "design")
        .form(&[
            ("title", "Carol's notes"),
            ("body", "hello"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .expect("post");
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn another_person_in_the_header_gets_their_own_session() {
    let app = proxied("127.0.0.1").await;
    let browser = new_client();
    let (_, page) = as_proxy(&app, &browser, "/", "carol", "").await;
    assert!(signed_in_as(&page, "carol"));
    let made = browser
        .post(format!("{}/docs", app.address))
        .header("Remote-User", "carol")
        .form(&[
            ("title", "Carol's secret"),
            ("body", "x"),
            ("space", "personal"),
            ("csrf", &crate::helpers::csrf_of(&page)),
        ])
        .send()
        .await
        .expect("post");
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    let (_, page) = as_proxy(&app, &browser, "/", "dave", "").await;
    assert!(
        signed_in_as(&page, "dave"),
        "the header, not the old cookie, says who"
    );
    assert!(!page.contains("Carol&#39;s secret") && !page.contains("Carol's secret"));
}

#[tokio::test]
async fn the_admin_group_makes_an_administrator_and_leaving_it_unmakes_one() {
    let app = proxied("127.0.0.1").await;
    let browser = new_client();
    let (_, page) = as_proxy(&app, &browser, "/admin/users", "erin", "wiki-admins").await;
    assert!(signed_in_as(&page, "erin"));
    assert!(
        page.contains("alice"),
        "the users page, for an administrator"
    );
    let (status, _) = as_proxy(&app, &browser, "/admin/users", "erin", "eng").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn from_an_untrusted_address_the_header_is_ignored() {
    let app = proxied("10.9.9.9").await;
    let browser = new_client();
    let (status, page) = as_proxy(&app, &browser, "/", "alice", "wiki-admins").await;
    assert_ne!(status, StatusCode::OK, "{page}");
    assert!(!signed_in_as(&page, "alice"));
    let users = quire::accounts::manage::list_users(&app.db)
        .await
        .expect("users");
    assert_eq!(users.len(), 1, "no account was made");
}

#[tokio::test]
async fn a_provider_name_never_takes_over_a_local_account() {
    let app = proxied("127.0.0.1").await;
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .expect("bob");
    let (bob, bob_csrf) = crate::helpers::sign_in(&app.address, "bob", PASSWORD).await;
    let made = bob
        .post(format!("{}/docs", app.address))
        .form(&[
            ("title", "Bob's diary"),
            ("body", "x"),
            ("space", "personal"),
            ("csrf", &bob_csrf),
        ])
        .send()
        .await
        .expect("post");
    assert_eq!(made.status(), StatusCode::SEE_OTHER);

    let browser = new_client();
    let (_, page) = as_proxy(&app, &browser, "/", "Bob@example.org", "").await;
    assert!(signed_in_as(&page, "Bob-2"), "a free variant of the name");
    assert!(!page.contains("diary"), "not bob's account");
    // The same person again is the same account.
    let (_, page) = as_proxy(&app, &new_client(), "/", "Bob@example.org", "").await;
    assert!(signed_in_as(&page, "Bob-2"));

    // They see how they are known, and choose another name; a taken one is refused.
    let (_, page) = as_proxy(&app, &browser, "/account", "Bob@example.org", "").await;
    assert!(
        page.contains("Single sign-on knows you as Bob@example.org, named by the sign-in proxy"),
        "{page}"
    );
    let rename = |name: &'static str| {
        let (browser, app) = (&browser, &app);
        let csrf = crate::helpers::csrf_of(&page);
        async move {
            browser
                .post(format!("{}/account/name", app.address))
                .header("Remote-User", "Bob@example.org")
                .form(&[("name", name), ("csrf", &csrf)])
                .send()
                .await
                .expect("post")
        }
    };
    let taken = rename("bob").await;
    assert_eq!(taken.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(taken.text().await.expect("body").contains("taken"));
    assert_eq!(rename("robert").await.status(), StatusCode::SEE_OTHER);
    let (_, page) = as_proxy(&app, &new_client(), "/", "Bob@example.org", "").await;
    assert!(
        signed_in_as(&page, "robert"),
        "the name stays theirs at the next sign-in"
    );
}

#[tokio::test]
async fn groups_the_provider_keeps_are_not_changed_in_quire_and_disabled_people_stay_out() {
    let app = proxied("127.0.0.1").await;
    let browser = new_client();
    as_proxy(&app, &browser, "/", "carol", "eng").await;
    let eng = quire::teams::groups::list(&app.db).await.expect("groups")[0].id;
    let alice = Manager {
        user_id: 1,
        name: "alice",
        is_admin: true,
    };
    let refused = quire::teams::groups::add(&app.db, alice, eng, "alice").await;
    assert!(
        matches!(&refused, Err(quire::documents::DocError::Invalid(m)) if m.contains("identity provider")),
        "{refused:?}"
    );
    let (_, page) = app.get_text(&format!("/admin/groups/{eng}")).await;
    assert!(page.contains("Kept in step by single sign-on"), "{page}");
    assert!(!page.contains("Add a person"));
    let (_, page) = app.get_text("/admin/groups").await;
    assert!(page.contains("· single sign-on"));

    let carol = quire::accounts::manage::list_users(&app.db)
        .await
        .expect("users")
        .into_iter()
        .find(|u| u.username == "carol")
        .expect("carol");
    let res = app
        .post_form(
            &format!("/admin/users/{}", carol.id),
            &[("action", "disable")],
        )
        .await;
    assert!(
        res.status().is_redirection() || res.status().is_success(),
        "{}",
        res.status()
    );
    let (status, page) = as_proxy(&app, &new_client(), "/", "carol", "eng").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(page.contains("disabled"), "{page}");
}
