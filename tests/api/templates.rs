//! Templates: a document marked a template is offered on the New page to
//! whoever may read it (and to nobody else, not even by its title), starts a
//! new document with its text, tags and filled fields; a space's managers name
//! the template new documents in the space or a folder of it start from.

use reqwest::StatusCode;

use crate::helpers::{Person, TestApp, create_in, location, team_space, textareas};

async fn mark(app: &TestApp, id: &str, on: &str) {
    let res = app
        .post_form(&format!("/d/{id}/template"), &[("template", on)])
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "mark {id} {on}");
}

async fn in_folder(app: &TestApp, title: &str, body: &str, space: &str, folder: &str) -> String {
    let res = app
        .post_form(
            "/docs",
            &[
                ("title", title),
                ("body", body),
                ("space", space),
                ("folder", folder),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "create {title}");
    let path = location(&res);
    let id = path.trim_start_matches("/d/").split('?').next();
    id.expect("the new document's id").to_owned()
}

/// The text in the editor's body field.
fn offered_body(page: &str) -> String {
    let field = page
        .split("<textarea")
        .find(|t| t.contains("name=\"body\""))
        .expect("the editor's text");
    textareas(&format!("<textarea{field}")).remove(0)
}

fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

#[tokio::test]
async fn a_template_starts_a_new_document_with_its_fields_filled() {
    let app = crate::helpers::spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let team = team_space(&app).await;
    let text = "# {{title}}\n\nOn {{ date }} at {{time}}, by {{author}}.\n\n{{attendees}}";
    let id = create_in(&app, "Meeting notes", text, &team).await;
    app.post_form(
        &format!("/d/{id}"),
        &[
            ("title", "Meeting notes"),
            ("body", text),
            ("version", "1"),
            ("tags", "meeting, notes"),
        ],
    )
    .await;
    let new = bob.text("/new").await;
    assert!(
        !new.contains("Meeting notes"),
        "not a template yet: not offered"
    );
    let page = app.get_text(&format!("/d/{id}")).await.1;
    assert!(page.contains(&format!("href=\"/d/{id}/template\"")));

    mark(&app, &id, "on").await;
    let new = bob.text("/new").await;
    assert!(new.contains("Start from a template"));
    assert!(new.contains(&format!("/new?template={id}&amp;space=")));
    assert!(new.contains(">Meeting notes</a>"));

    // With a title already given, every field is filled at once.
    let page = bob.text(&format!("/new?template={id}&title=Standup")).await;
    let body = offered_body(&page);
    assert!(
        body.starts_with(&format!("# Standup\n\nOn {} at ", today())),
        "{body}"
    );
    assert!(body.contains(", by bob.") && body.ends_with("{{attendees}}"));
    assert!(
        page.contains("value=\"meeting, notes\""),
        "its tags come too"
    );
    assert!(page.contains("Started from the template"));
    assert!(page.contains(&format!("name=\"from_template\" value=\"{id}\"")));

    // Without one, {{title}} waits for the title the writer gives it.
    let page = bob.text(&format!("/new?template={id}")).await;
    let body = offered_body(&page);
    assert!(body.starts_with("# {{title}}"), "{body}");
    let res = bob
        .post(
            "/docs",
            &[
                ("title", "Retro"),
                ("body", &body),
                ("space", &team),
                ("from_template", &id),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let made = location(&res).split('?').next().map(str::to_owned).unwrap();
    let page = bob.text(&made).await;
    assert!(page.contains("<h1 id=\"retro\"") || page.contains(">Retro</h1>"));
    let edit = bob.text(&format!("{made}/edit")).await;
    let saved = offered_body(&edit);
    assert!(saved.starts_with("# Retro\n"), "{saved}");

    // A title is text wherever a field puts it.
    let res = bob
        .post(
            "/docs",
            &[
                ("title", "<script>alert(1)</script>"),
                ("body", "# {{title}}\n\n<b onclick=x>{{title}}</b>"),
                ("space", &team),
                ("from_template", &id),
            ],
        )
        .await;
    let made = location(&res).split('?').next().map(str::to_owned).unwrap();
    let page = bob.text(&made).await;
    let prose = page.split("class=\"prose\"").nth(1).unwrap();
    assert!(
        !prose.contains("<script") && !prose.contains("onclick"),
        "{prose}"
    );

    // Stopping it being a template takes it off the New page.
    mark(&app, &id, "off").await;
    assert!(!bob.text("/new").await.contains("Start from a template"));
    let (status, _) = bob.page(&format!("/new?template={id}")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_template_nobody_may_read_is_neither_offered_nor_named() {
    let app = crate::helpers::spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let secret = create_in(&app, "Layoff plan", "{{date}}: who goes", "personal").await;
    mark(&app, &secret, "on").await;
    assert!(app.get_text("/new").await.1.contains("Layoff plan"));

    let new = bob.text("/new").await;
    assert!(!new.contains("Layoff plan"), "its title is a secret too");
    let (status, page) = bob.page(&format!("/new?template={secret}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("Layoff plan") && !page.contains("who goes"));
    let (status, page) = bob.page(&format!("/d/{secret}/template")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("Layoff plan"));
    let res = bob
        .post(&format!("/d/{secret}/template"), &[("template", "off")])
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(app.get_text("/new").await.1.contains("Layoff plan"));

    let (status, _) = bob.page("/new?template=not-an-id").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Shared with him to read: offered, but reading is not enough to mark it.
    let res = app
        .post_form(
            &format!("/d/{secret}/share"),
            &[("action", "share"), ("username", "bob"), ("role", "read")],
        )
        .await;
    assert!(res.status().is_redirection());
    assert!(bob.text("/new").await.contains("Layoff plan"));
    let page = bob.text(&format!("/d/{secret}/template")).await;
    assert!(page.contains("is a template") && !page.contains("Stop being a template"));
    let res = bob
        .post(&format!("/d/{secret}/template"), &[("template", "off")])
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(bob.text("/new").await.contains("Layoff plan"));
}

#[tokio::test]
async fn a_space_manager_names_the_template_new_documents_there_start_from() {
    let app = crate::helpers::spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let team = team_space(&app).await;
    let whole = in_folder(&app, "Team page", "Team: {{title}}", &team, "").await;
    let id = in_folder(&app, "Meeting", "Agenda for {{date}}", &team, "Meetings").await;

    // Only a template can be named, and only where it is or above.
    let res = app
        .post_form(
            &format!("/d/{id}/template/default"),
            &[("folder", "Meetings"), ("default", "on")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    mark(&app, &id, "on").await;
    mark(&app, &whole, "on").await;
    let res = app
        .post_form(
            &format!("/d/{id}/template/default"),
            &[("folder", "Elsewhere"), ("default", "on")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    for (doc, folder) in [(&id, "Meetings"), (&whole, "")] {
        let res = app
            .post_form(
                &format!("/d/{doc}/template/default"),
                &[("folder", folder), ("default", "on")],
            )
            .await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "default in {folder:?}");
    }
    let page = app.get_text(&format!("/d/{id}/template")).await.1;
    assert!(page.contains("In Meetings <strong>starts from it</strong>"));

    // bob edits in Team but does not manage it: he may not name one.
    let (_, page) = bob.page(&format!("/d/{id}/template")).await;
    assert!(!page.contains("template/default"), "no manager's forms");
    let res = bob
        .post(
            &format!("/d/{id}/template/default"),
            &[("folder", ""), ("default", "on")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    let new = |folder: &str| format!("/new?space={team}&folder={folder}");
    let body = offered_body(&bob.text(&new("Meetings")).await);
    assert_eq!(body, format!("Agenda for {}", today()));
    let body = offered_body(&bob.text(&new("Meetings/2026")).await);
    assert_eq!(
        body,
        format!("Agenda for {}", today()),
        "folders under it too"
    );
    let body = offered_body(&bob.text(&new("Other")).await);
    assert_eq!(body, "Team: {{title}}", "the space's own elsewhere");
    let body = offered_body(
        &bob.text(&format!("{}&template=none", new("Meetings")))
            .await,
    );
    assert_eq!(body, "", "a blank one when asked");
    let (_, personal) = bob.page("/new?space=personal").await;
    assert_eq!(offered_body(&personal), "", "not in his own space");

    // A template moved out of the space stops being its default; one that is
    // no longer a template too.
    mark(&app, &id, "off").await;
    let body = offered_body(&bob.text(&new("Meetings")).await);
    assert_eq!(body, "Team: {{title}}");
}
