use futures::future::join_all;
use reqwest::StatusCode;

use crate::helpers::spawn_app;

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
