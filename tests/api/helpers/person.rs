//! Another person on the test server, signed in with a browser's cookies.

use reqwest::StatusCode;

use super::{PASSWORD, TestApp, sign_in};

/// A second (or third) person, signed in.
pub struct Person {
    pub client: reqwest::Client,
    pub csrf: String,
    pub address: String,
}

impl Person {
    pub async fn new(app: &TestApp, name: &str) -> Self {
        quire::accounts::create_user(&app.db, name, PASSWORD, false)
            .await
            .unwrap();
        let (client, csrf) = sign_in(&app.address, name, PASSWORD).await;
        Self {
            client,
            csrf,
            address: app.address.clone(),
        }
    }

    pub async fn page(&self, path: &str) -> (StatusCode, String) {
        let res = self
            .client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .unwrap();
        (res.status(), res.text().await.unwrap())
    }

    pub async fn text(&self, path: &str) -> String {
        let (status, page) = self.page(path).await;
        assert_eq!(status, StatusCode::OK, "GET {path}");
        page
    }

    pub async fn post(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let mut fields = fields.to_vec();
        fields.push(("csrf", &self.csrf));
        self.client
            .post(format!("{}{path}", self.address))
            .form(&fields)
            .send()
            .await
            .unwrap()
    }

    /// The unread count the header shows (0 when it shows none).
    pub async fn unread(&self) -> i64 {
        let page = self.text("/account").await;
        let tag = page
            .split(r#"<span id="inbox-count-wide""#)
            .nth(1)
            .expect("the header has the inbox's count");
        let (attributes, rest) = tag.split_once('>').expect("a tag");
        if attributes.contains("hidden") {
            return 0;
        }
        rest.split('<').next().map_or(0, |n| n.parse().unwrap())
    }
}

/// Tells every waiting change, as the notifier does in the background.
pub async fn told(app: &TestApp) {
    while quire::notices::notifier::tell_waiting(&app.db)
        .await
        .unwrap()
        > 0
    {}
}

/// The id of the team space every account joins, as a form field.
pub async fn team_space(app: &TestApp) -> String {
    let id: i64 = quire::db::query_scalar("SELECT id FROM spaces WHERE name = 'Team'")
        .fetch_one(&app.db.read)
        .await
        .expect("the team space");
    id.to_string()
}

/// A document of alice's in space `space` (a form value); its id.
pub async fn create_in(app: &TestApp, title: &str, body: &str, space: &str) -> String {
    let res = app
        .post_form(
            "/docs",
            &[("title", title), ("body", body), ("space", space)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "create {title}");
    super::location(&res)
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .expect("the new document's address")
        .to_owned()
}
