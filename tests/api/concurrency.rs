use futures::future::join_all;
use reqwest::StatusCode;

use crate::helpers::{PASSWORD, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_saves_to_different_documents_all_persist() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    for i in 0..50 {
        ids.push(app.create_document(&format!("doc {i}"), "start").await);
    }

    let saves = ids.iter().enumerate().map(|(i, id)| {
        let app = &app;
        async move {
            app.save(id, &format!("doc {i}"), &format!("saved {i}"), 1)
                .await
        }
    });
    let results = join_all(saves).await;

    assert!(results.iter().all(|r| r.status() == StatusCode::SEE_OTHER));
    for (i, id) in ids.iter().enumerate() {
        let (_, html) = app.get_text(&format!("/d/{id}")).await;
        assert!(
            html.contains(&format!("saved {i}")),
            "doc {i} lost its save"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_parallel_saves_of_one_version_one_wins_one_conflicts() {
    let app = spawn_app().await;
    for round in 0..10 {
        let id = app.create_document("race", "base").await;
        let (a, b) = tokio::join!(
            app.save(&id, "race", "from A", 1),
            app.save(&id, "race", "from B", 1)
        );
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::SEE_OTHER, StatusCode::CONFLICT],
            "round {round}"
        );
        let (_, html) = app.get_text(&format!("/d/{id}")).await;
        assert!(html.contains("version 2"));
    }
}

/// Writes that wait for the writer together share one transaction; one that
/// fails there (its owner's account deleted while it waited) gets its own
/// error, and the others are written.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_write_that_fails_in_a_shared_batch_sinks_nobody_else() {
    use quire::documents::{self, Actor, Caller, DocError, Valid};
    let app = spawn_app().await;
    let user = |name: &'static str| quire::accounts::create_user(&app.db, name, PASSWORD, false);
    let (stays, goes) = (user("stays").await.unwrap(), user("goes").await.unwrap());

    // The writer is held, so every write below waits in its queue.
    let held = app.db.begin_write().await.unwrap();
    let writes: Vec<_> = (0..9)
        .map(|i| {
            let db = app.db.clone();
            let (id, name) = match i {
                4 => (goes.id, "goes"),
                _ => (stays.id, "stays"),
            };
            tokio::spawn(async move {
                let doc = Valid::parse(&format!("doc {i}"), "text", 1024).unwrap();
                let actor = Caller::Person(Actor { user_id: id, name });
                documents::create(&db, doc, actor).await
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    quire::db::accounts::delete_to_heir(&held, goes.id, stays.id)
        .await
        .unwrap();
    held.commit().await.unwrap();

    let mut written = 0;
    for (i, write) in writes.into_iter().enumerate() {
        match (i, write.await.unwrap()) {
            (4, Err(DocError::AccountGone)) => {}
            (4, other) => panic!("the write of a deleted account: {:?}", other.map(|d| d.id)),
            (_, Ok(_)) => written += 1,
            (_, Err(e)) => panic!("write {i} sank with another's: {e:?}"),
        }
    }
    assert_eq!(written, 8);
}

/// A save let in while the person could edit, then queued behind the writer
/// while their right to edit was taken away, writes nothing: the right is
/// checked again by the write itself, in the transaction it shares.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_save_queued_while_the_right_to_edit_is_taken_away_writes_nothing() {
    use quire::documents::{self, Actor, Caller, DocId, InSpace, OnStale, Valid};
    let app = spawn_app().await;
    let user = |name: &'static str| quire::accounts::create_user(&app.db, name, PASSWORD, false);
    let (owner, bob) = (user("owner").await.unwrap(), user("bob").await.unwrap());
    let as_owner = Caller::Person(Actor {
        user_id: owner.id,
        name: "owner",
    });
    let doc = Valid::parse("Shared", "the first text", 1024).unwrap();
    // In the owner's personal space: only the document's own setting lets bob in.
    let doc = documents::create_in(&app.db, doc, as_owner, Some(InSpace::Personal))
        .await
        .unwrap();
    quire::db::documents::shares::set_visibility(&app.db.write, doc.seq, "edit")
        .await
        .unwrap();

    // Bob's save is let in (anyone may edit), then waits for the writer.
    let held = app.db.begin_write().await.unwrap();
    let save = {
        let (db, id) = (app.db.clone(), DocId::parse(&doc.id).unwrap());
        tokio::spawn(async move {
            let text = Valid::parse("Shared", "bob's text", 1024).unwrap();
            let as_bob = Caller::Person(Actor {
                user_id: bob.id,
                name: "bob",
            });
            documents::save(&db, &id, 1, text, OnStale::Merge { cap: 1024 }, as_bob).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    quire::db::documents::shares::set_visibility(&held, doc.seq, "read")
        .await
        .unwrap();
    held.commit().await.unwrap();

    let saved = save.await.unwrap();
    assert!(
        saved.is_err(),
        "bob's save was written: {:?}",
        saved.map(|s| s.doc.version)
    );
    let now = documents::get(&app.db, &DocId::parse(&doc.id).unwrap(), as_owner)
        .await
        .unwrap();
    assert_eq!((now.version, now.body.as_str()), (1, "the first text"));
}
