//! Knowing what changed: the inbox, watching and recent changes, as people
//! see them; each tells only what its reader may read at the moment it is
//! shown (a title is a secret too).

use reqwest::StatusCode;

use crate::helpers::{Person, TestApp, create_in, location, spawn_app, team_space, told};

pub async fn share(app: &TestApp, id: &str, name: &str) {
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "share"), ("username", name), ("role", "read")],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

async fn unshare(app: &TestApp, id: &str, name: &str) {
    let user: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = $1")
        .bind(name)
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let user = user.to_string();
    let res = app
        .post_form(
            &format!("/d/{id}/share"),
            &[("action", "unshare"), ("user_id", &user)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_share_and_the_edits_after_it_reach_only_the_person_shared_with() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    let id = app.create_document("Salary bands", "v1").await;
    share(&app, &id, "bob").await;
    told(&app).await;

    let inbox = bob.text("/inbox").await;
    assert!(inbox.contains("Salary bands"), "{inbox}");
    assert!(inbox.contains("alice shared it with you"), "{inbox}");
    assert_eq!(bob.unread().await, 1);
    assert!(!carol.text("/inbox").await.contains("Salary bands"));
    assert_eq!(carol.unread().await, 0);

    // Three saves by alice: one notice that gathers them, leading to the
    // changes since bob was told.
    for (v, body) in [(1, "v2"), (2, "v3"), (3, "v4")] {
        let res = app.save(&id, "Salary bands", body, v).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
    }
    told(&app).await;
    let inbox = bob.text("/inbox").await;
    assert!(inbox.contains("3 saves, the last by alice"), "{inbox}");
    assert_eq!(bob.unread().await, 2);
    let edited: i64 = quire::db::query_scalar(
        "SELECT n.id FROM notices n JOIN users u ON u.id = n.user_id
         WHERE u.username = 'bob' AND n.kind = 'edited'",
    )
    .fetch_one(&app.db.read)
    .await
    .unwrap();
    // Another person cannot open (or mark read) bob's notice.
    let (status, _) = carol.page(&format!("/inbox/{edited}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let res = bob
        .client
        .get(format!("{}/inbox/{edited}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&res), format!("/d/{id}/diff?from=1&to=4"));
    assert_eq!(bob.unread().await, 1, "following a notice marks it read");

    let res = bob.post("/inbox/read-all", &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(bob.unread().await, 0);
    // Nobody else was told anything.
    assert!(!carol.text("/inbox").await.contains("Salary bands"));
}

#[tokio::test]
async fn a_notice_about_what_the_reader_can_no_longer_read_is_never_shown() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Reorg plan", "draft").await;
    share(&app, &id, "bob").await;
    told(&app).await;
    assert_eq!(bob.unread().await, 1);

    // The share is taken back before bob looks: the notice (and its title)
    // is gone from his inbox and his count.
    unshare(&app, &id, "bob").await;
    assert_eq!(bob.unread().await, 0);
    let inbox = bob.text("/inbox").await;
    assert!(!inbox.contains("Reorg plan"), "{inbox}");
    let notice: i64 = quire::db::query_scalar("SELECT id FROM notices")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let (status, page) = bob.page(&format!("/inbox/{notice}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("Reorg plan"));

    // He still watches it (sharing made him), but an edit made after he lost
    // access tells him nothing, even when it is shared again later.
    let res = app.save(&id, "Reorg plan, final", "final", 1).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    told(&app).await;
    let edited: i64 = quire::db::query_scalar("SELECT count(*) FROM notices WHERE kind = 'edited'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    assert_eq!(edited, 0, "no notice is made for a reader without access");
}

#[tokio::test]
async fn mentions_reach_readers_once_and_never_from_code() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let carol = Person::new(&app, "carol").await;
    // In the team space: bob and carol may both read it.
    let res = app
        .post_form(
            "/docs",
            &[
                ("title", "Launch checklist"),
                ("body", "Ask @bob about the DNS.\n\n```\n@carol\n```\n"),
            ],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let id = location(&res)
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    told(&app).await;
    assert!(bob.text("/inbox").await.contains("alice mentioned you"));
    assert!(!carol.text("/inbox").await.contains("Launch checklist"));

    // Saved again with the mention still there: no second mention notice,
    // but bob now watches it and hears of the edit.
    let res = app
        .save(&id, "Launch checklist", "Ask @bob about the DNS. Done?", 1)
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    told(&app).await;
    let inbox = bob.text("/inbox").await;
    assert_eq!(inbox.matches("mentioned you").count(), 1, "{inbox}");
    assert!(inbox.contains("alice edited it"), "{inbox}");

    // A private document naming carol tells her nothing: she may not read it.
    app.create_document("Notes on @carol", "@carol is late again")
        .await;
    told(&app).await;
    let inbox = carol.text("/inbox").await;
    assert!(!inbox.contains("Notes on"), "{inbox}");
    assert_eq!(carol.unread().await, 0);
    // Not hidden at show time only: no notice was made at all.
    let made: i64 = quire::db::query_scalar(
        "SELECT count(*) FROM notices n JOIN users u ON u.id = n.user_id
         WHERE u.username = 'carol'",
    )
    .fetch_one(&app.db.read)
    .await
    .unwrap();
    assert_eq!(made, 0);
}

#[tokio::test]
async fn recent_changes_show_only_what_the_reader_may_read_gathered_and_marked() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let secret = app.create_document("Layoffs", "secret").await;
    app.save(&secret, "Layoffs", "secret 2", 1).await;
    let team = team_space(&app).await;
    let open = create_in(&app, "Roadmap", "a", &team).await;
    for v in 1..=3 {
        app.save(&open, "Roadmap", &format!("a{v}"), v).await;
    }

    let page = bob.text("/changes").await;
    assert!(page.contains("Roadmap"), "{page}");
    assert!(!page.contains("Layoffs"), "a private title leaked: {page}");
    // Four saves by alice within the hour: one line, leading to the changes
    // from the creation's text to the last.
    assert_eq!(page.matches(">Roadmap<").count(), 1, "{page}");
    assert!(page.contains("4 saves"), "{page}");
    assert!(page.contains(&format!("/d/{open}/r/4")), "{page}");
    assert!(!page.contains("Since your last visit"));

    // Bob looked; a later save is marked as new since then.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let res = app
        .post_form(
            "/docs",
            &[("title", "Hiring plan"), ("body", "b"), ("space", &team)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let page = bob.text("/changes").await;
    assert!(page.contains("You last looked"), "{page}");
    let mark = page.find("Since your last visit").expect("the mark");
    assert!(page.find("Hiring plan").unwrap() < mark);
    assert!(page.find(">Roadmap<").unwrap() > mark);

    // Narrowed to alice's personal space, bob sees nothing of it.
    let page = bob.text("/changes?space=personal").await;
    assert!(!page.contains("Layoffs") && !page.contains("Roadmap"));
    let page = app.get_text("/changes?space=personal").await.1;
    assert!(page.contains("Layoffs"));
}

/// Changes are told in the order they were made, however many notifiers run
/// (every instance has one, and tests tell by hand beside it): a batch under
/// way keeps a second one waiting, or the second could tell a later share of
/// a document before the first told an earlier save of it, and the new reader
/// would be told of an edit made before they could read it. On PostgreSQL
/// a save made while a batch runs goes through.
#[tokio::test]
async fn a_second_notifier_waits_for_the_batch_under_way() {
    let app = spawn_app().await;
    let id = app.create_document("Ordered", "one").await;
    told(&app).await;
    let batch = app.db.begin_queue_write().await.unwrap();
    let db = app.db.clone();
    let second = tokio::spawn(async move { db.begin_queue_write().await.map(drop) });
    // The save runs beside the wait, not before it: another of the server's
    // writers may be queued for the lock alone behind the batch, and a save
    // queued behind that one ends only when the batch does.
    let saving = async {
        match crate::helpers::on_postgres() {
            true => Some(app.save(&id, "Ordered", "two", 1).await),
            false => None,
        }
    };
    tokio::pin!(saving);
    let began = tokio::time::Instant::now();
    let early = tokio::time::timeout(std::time::Duration::from_millis(300), &mut saving).await;
    tokio::time::sleep_until(began + std::time::Duration::from_millis(300)).await;
    assert!(
        !second.is_finished(),
        "a second batch began beside the first"
    );
    drop(batch);
    let saved = match early {
        Ok(saved) => saved,
        Err(_) => saving.await,
    };
    if let Some(res) = saved {
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "the save went through");
    }
    second.await.unwrap().unwrap();
}

/// A batch holding a change that cannot be told (a person who is gone) is
/// told again one change at a time: the bad change is dropped, every other
/// is told exactly once, and nothing is left waiting.
#[tokio::test]
async fn a_change_that_cannot_be_told_is_dropped_and_the_rest_told_once() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let id = app.create_document("Travel policy", "draft").await;
    share(&app, &id, "bob").await;
    told(&app).await;
    let res = bob.post("/inbox/read-all", &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(bob.unread().await, 0);

    // Both in one statement, so one batch takes both, the bad one first.
    let users: Vec<i64> = quire::db::query_scalar(
        "SELECT id FROM users WHERE username IN ('alice', 'bob') ORDER BY username",
    )
    .fetch_all(&app.db.read)
    .await
    .unwrap();
    let (alice, bob_id) = (users[0], users[1]);
    let doc: i64 = quire::db::query_scalar("SELECT seq FROM documents WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let space: i64 = team_space(&app).await.parse().unwrap();
    quire::db::query(
        "INSERT INTO change_queue (kind, doc_seq, space_id, user_id, actor_id, created_at)
         VALUES ('space', NULL, $1, 987654, $2, 0), ('share', $3, NULL, $4, $2, 0)",
    )
    .bind(space)
    .bind(alice)
    .bind(doc)
    .bind(bob_id)
    .execute(&app.db.write)
    .await
    .unwrap();
    told(&app).await;

    assert_eq!(bob.unread().await, 1, "the good change is told");
    let count: i64 = quire::db::query_scalar(
        "SELECT count FROM notices WHERE user_id = $1 AND kind = 'shared' AND read_at IS NULL",
    )
    .bind(bob_id)
    .fetch_one(&app.db.read)
    .await
    .unwrap();
    assert_eq!(count, 1, "told once");
    let left: i64 = quire::db::query_scalar("SELECT count(*) FROM change_queue")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    assert_eq!(left, 0, "nothing is left waiting");
}
