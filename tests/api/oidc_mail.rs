//! Single sign-on fills in a person's mail address from the provider's
//! verified `email` claim, only where they have none, never from an address
//! the provider did not check.

use crate::helpers::idp::{sign_in_with_provider, with_provider};
use crate::helpers::{TestApp, new_client};

async fn email_of(app: &TestApp, name: &str) -> Option<String> {
    quire::db::query_scalar("SELECT email FROM users WHERE username = $1")
        .bind(name)
        .fetch_one(&app.db.read)
        .await
        .expect("the account")
}

#[tokio::test]
async fn a_verified_email_becomes_the_mail_address_unless_one_was_chosen() {
    let (app, _idp) = with_provider(|_| {}).await;
    sign_in_with_provider(&app, &new_client(), "carol").await;
    assert_eq!(
        email_of(&app, "carol").await.as_deref(),
        Some("carol@example.org")
    );
    let key: Option<String> =
        quire::db::query_scalar("SELECT mail_key FROM users WHERE username = 'carol'")
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    assert!(key.is_some(), "an unsubscribe key goes with it");

    // Chosen by the person: the provider's does not replace it.
    quire::db::query("UPDATE users SET email = 'carol@home.example' WHERE username = 'carol'")
        .execute(&app.db.write)
        .await
        .unwrap();
    sign_in_with_provider(&app, &new_client(), "carol").await;
    assert_eq!(
        email_of(&app, "carol").await.as_deref(),
        Some("carol@home.example")
    );

    // The provider's "alice" has an email nobody verified: none is taken.
    sign_in_with_provider(&app, &new_client(), "alice").await;
    let made: String = quire::db::query_scalar(
        "SELECT u.username FROM users u JOIN identities i ON i.user_id = u.id WHERE i.subject = 's-mallory'",
    )
    .fetch_one(&app.db.read)
    .await
    .unwrap();
    assert_eq!(email_of(&app, &made).await, None);
}
