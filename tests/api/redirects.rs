//! Where sign-in sends the browser next: only somewhere on this site.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, anonymous, location, spawn_app};

#[tokio::test]
async fn a_next_address_with_tabs_or_line_breaks_sends_a_signed_in_user_home() {
    let app = spawn_app().await;
    for next in [
        "%2F%09%2Fevil.example",
        "%2F%0A%2Fevil.example",
        "%2F%0D%2Fx",
    ] {
        let res = app.get(&format!("/login?next={next}")).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "next={next}");
        assert_eq!(location(&res), "/", "next={next}");
    }
}

#[tokio::test]
async fn signing_in_with_a_next_address_that_browsers_would_take_off_site_goes_home() {
    let app = spawn_app().await;
    for next in ["/\t/evil.example", "/\n/evil.example", "/\r/x", "/\\/evil"] {
        let (client, csrf) = anonymous(&app.address).await;
        let res = client
            .post(format!("{}/login", app.address))
            .form(&[
                ("username", "alice"),
                ("password", PASSWORD),
                ("csrf", &csrf),
                ("next", next),
            ])
            .send()
            .await
            .expect("POST /login");
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "next={next:?}");
        assert_eq!(location(&res), "/", "next={next:?}");
    }
}
