//! A title is a secret too: what a reader sees of links between documents
//! (where a link leads, whether it is missing, "Linked from", `/go`, `/titles`)
//! is the same whether or not a document they may not read has the title.

use reqwest::StatusCode;

use crate::helpers::{TestApp, location, someone_elses_private_document, spawn_app};

/// Another signed-in user of `app`, with the first document they wrote.
struct Person {
    client: reqwest::Client,
    csrf: String,
    address: String,
    first: String,
}

impl Person {
    async fn new(app: &TestApp, name: &str, title: &str, body: &str) -> Self {
        let (client, csrf, first) =
            someone_elses_private_document(app, name, &[("title", title), ("body", body)]).await;
        Self {
            client,
            csrf,
            address: app.address.clone(),
            first,
        }
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .unwrap()
    }

    async fn page(&self, path: &str) -> String {
        let res = self.get(path).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        res.text().await.unwrap()
    }

    async fn post(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let mut fields = fields.to_vec();
        fields.push(("csrf", &self.csrf));
        let res = self
            .client
            .post(format!("{}{path}", self.address))
            .form(&fields)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_redirection(), "{path}: {}", res.status());
        res
    }

    /// A new document of theirs, private: its id.
    async fn create(&self, title: &str, body: &str) -> String {
        let res = self
            .post("/docs", &[("title", title), ("body", body)])
            .await;
        let path = location(&res);
        path.trim_start_matches("/d/")
            .split('?')
            .next()
            .unwrap()
            .to_owned()
    }
}

/// `app`'s own user (alice) makes `id` readable by everyone signed in, or private.
async fn set_visibility(app: &TestApp, id: &str, visibility: &str) {
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "visibility"), ("visibility", visibility)],
        )
        .await;
    assert!(res.status().is_redirection() || res.status().is_success());
}

fn leads_to(id: &str, label: &str) -> String {
    format!("<a class=\"wikilink\" href=\"/d/{id}\">{label}</a>")
}

fn linked_from(id: &str, title: &str) -> String {
    format!("<li><a href=\"/d/{id}\">{title}</a></li>")
}

#[tokio::test]
async fn a_title_only_a_private_document_has_shows_as_a_title_nobody_has() {
    let app = spawn_app().await;
    let hidden = app.create_document("Zebra Merger Plan", "secret").await;
    set_visibility(&app, &hidden, "private").await;
    // Bob links to the hidden title and to a title nobody has, alike.
    let bob = Person::new(
        &app,
        "bob",
        "Bob index",
        "[[Zebra Merger Plan]] and [[Yak Budget Plan]]",
    )
    .await;
    let index = format!("/d/{}", bob.first);

    let page = bob.page(&index).await;
    for title in ["Zebra%20Merger%20Plan", "Yak%20Budget%20Plan"] {
        assert!(
            page.contains(&format!(
                "<a class=\"wikilink missing\" href=\"/new?title={title}\""
            )),
            "{page}"
        );
    }
    assert!(!page.contains(&hidden), "{page}");

    // Each title, once he gives it to a document of his, leads there.
    let zebra = bob.create("Zebra Merger Plan", "mine").await;
    let yak = bob.create("Yak Budget Plan", "mine").await;
    let page = bob.page(&index).await;
    assert!(page.contains(&leads_to(&yak, "Yak Budget Plan")), "{page}");
    assert!(
        page.contains(&leads_to(&zebra, "Zebra Merger Plan")),
        "the hidden title kept Bob's link missing: {page}"
    );
    assert!(!page.contains("wikilink missing") && !page.contains(&hidden));

    // A page that does not say where a link leads, and the titles offered.
    for (to, id) in [
        ("Zebra%20Merger%20Plan", &zebra),
        ("Yak%20Budget%20Plan", &yak),
    ] {
        let res = bob.get(&format!("/go?to={to}")).await;
        assert_eq!(location(&res), format!("/d/{id}"));
    }
    let offered = bob.page("/titles?q=merger").await;
    assert_eq!(offered.matches("data-target=").count(), 1, "{offered}");
}

#[tokio::test]
async fn a_waiting_link_is_taken_by_the_readers_own_document_and_listed_under_linked_from() {
    let app = spawn_app().await;
    let hidden = app.create_document("Zebra Merger Plan", "secret").await;
    set_visibility(&app, &hidden, "private").await;
    let bob = Person::new(&app, "bob", "Bob index", "See [[zebra merger plan]].").await;

    let zebra = bob.create("Zebra Merger Plan", "mine").await;
    let later = bob
        .create("Bob notes", "Also [[Zebra Merger Plan|the plan]].")
        .await;

    let page = bob.page(&format!("/d/{zebra}")).await;
    assert!(page.contains("Linked from"), "{page}");
    assert!(
        page.contains(&linked_from(&bob.first, "Bob index")),
        "Bob's waiting link was not taken by his document: {page}"
    );
    assert!(page.contains(&linked_from(&later, "Bob notes")), "{page}");
    let page = bob.page(&format!("/d/{later}")).await;
    assert!(page.contains(&leads_to(&zebra, "the plan")), "{page}");
    // Alice's own page lists nothing she may not read.
    let (_, page) = app.get_text(&format!("/d/{hidden}")).await;
    assert!(!page.contains("Linked from"), "{page}");
}

#[tokio::test]
async fn a_link_leads_to_the_document_its_reader_may_read_when_a_hidden_one_shares_its_title() {
    let app = spawn_app().await;
    // The older of two "Budget"s is private; the newer and "Garden Plan" are not.
    let hidden = app.create_document("Budget", "secret").await;
    set_visibility(&app, &hidden, "private").await;
    let budget = app.create_document("Budget", "open").await;
    set_visibility(&app, &budget, "read").await;
    let garden = app.create_document("Garden Plan", "open").await;
    set_visibility(&app, &garden, "read").await;
    let bob = Person::new(&app, "bob", "Bob index", "[[Budget]] and [[Garden Plan]]").await;

    let page = bob.page(&format!("/d/{}", bob.first)).await;
    assert!(page.contains(&leads_to(&garden, "Garden Plan")), "{page}");
    assert!(
        page.contains(&leads_to(&budget, "Budget")),
        "the hidden older document hid the one Bob may read: {page}"
    );
    let page = bob.page(&format!("/d/{budget}")).await;
    assert!(
        page.contains(&linked_from(&bob.first, "Bob index")),
        "{page}"
    );
    // Alice may not read Bob's index: no backlink from it.
    let (_, page) = app.get_text(&format!("/d/{budget}")).await;
    assert!(!page.contains("Linked from"), "{page}");
}

#[tokio::test]
async fn a_link_follows_a_renamed_document_its_reader_may_read_whatever_else_had_the_title() {
    let app = spawn_app().await;
    let hidden = app.create_document("Zebra Merger Plan", "secret").await;
    set_visibility(&app, &hidden, "private").await;
    let bob = Person::new(&app, "bob", "Bob index", "[[Zebra Merger Plan]]").await;
    // Carol's document takes the title after Bob wrote the link, is shown to
    // everyone, then renamed: the link follows it, as it would with no
    // hidden document of that title.
    let carol = Person::new(&app, "carol", "Zebra Merger Plan", "hers").await;
    carol
        .post(
            &format!("/d/{}/share", carol.first),
            &[("action", "visibility"), ("visibility", "read")],
        )
        .await;
    carol
        .post(
            &format!("/d/{}", carol.first),
            &[("title", "Yak Plan"), ("body", "hers"), ("version", "1")],
        )
        .await;

    let page = bob.page(&format!("/d/{}", bob.first)).await;
    assert!(
        page.contains(&leads_to(&carol.first, "Zebra Merger Plan")),
        "{page}"
    );
    let page = bob.page(&format!("/d/{}", carol.first)).await;
    assert!(page.contains("Yak Plan"), "{page}");
    assert!(
        page.contains(&linked_from(&bob.first, "Bob index")),
        "{page}"
    );
}
