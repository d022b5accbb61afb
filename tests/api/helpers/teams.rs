//! Spaces the tests set up through the team functions.

use reqwest::StatusCode;

use super::TestApp;

/// The test admin, as the team functions take a manager.
pub const ALICE: quire::teams::Manager<'static> = quire::teams::Manager {
    user_id: 1,
    name: "alice",
    is_admin: true,
};

/// A space `Ops` holding one document of alice's, `Runbook`; its id. Tests
/// then say who reads it (a group the identity provider keeps, say).
pub async fn ops_space(app: &TestApp) -> i64 {
    let ops = quire::teams::spaces::create(&app.db, ALICE, "Ops", None)
        .await
        .expect("space");
    let made = app
        .post_form(
            "/docs",
            &[
                ("title", "Runbook"),
                ("body", "restart it"),
                ("space", &ops.to_string()),
            ],
        )
        .await;
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    ops
}

/// The member number of `who`'s row on a space's page (`page`), as its
/// "Remove" form sends it.
pub fn member_of(page: &str, who: &str) -> String {
    page.split("<tr>")
        .skip(1)
        .find(|r| r.contains(who))
        .and_then(|r| r.split(r#"name="member" value=""#).nth(1))
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("{who}'s row on the space's page"))
        .to_owned()
}
