//! SQLite's `-shm` file marked immutable while quire serves: a write to it
//! would end the process with SIGBUS, so quire must refuse every request with
//! why, stay up, log it once, and work again once the mark is gone.

use std::process::Command;

use super::server::{Server, sign_in};

fn chattr(flag: &str, file: &std::path::Path) -> bool {
    Command::new("chattr")
        .arg(flag)
        .arg(file)
        .status()
        .is_ok_and(|s| s.success())
}

#[tokio::test]
async fn an_immutable_shm_file_while_serving_is_refused_with_why_and_quire_stays_up() {
    let mut server = Server::start();
    let base = format!("http://127.0.0.1:{}", server.port());
    let (client, csrf) = sign_in(&base).await;
    let shm = server.folder().join("q.db-shm");
    assert!(shm.exists(), "the server has its -shm file");
    if !chattr("+i", &shm) {
        eprintln!("\n*** SKIPPED an_immutable_shm_file: no immutable flag here (root, ext4) ***\n");
        return;
    }
    let save = |title: &'static str| {
        client
            .post(format!("{base}/docs"))
            .form(&[("title", title), ("body", "Some text."), ("csrf", &csrf)])
            .send()
    };
    let (status, page) = match save("Written while the file is immutable").await {
        Ok(res) => (res.status().as_u16(), res.text().await.unwrap_or_default()),
        Err(e) => (0, e.to_string()),
    };
    // Reads would write into the file too: they are refused as well.
    let list = client.get(format!("{base}/")).send().await;
    let ready = client.get(format!("{base}/readyz")).send().await;
    // A few moments for the indexer and the change watcher to run meanwhile.
    tokio::time::sleep(std::time::Duration::from_millis(2_500)).await;
    let alive = server.is_running();
    chattr("-i", &shm);
    assert!(alive, "quire is still running");
    assert_eq!(status, 503, "{page}");
    assert!(
        page.contains("shared-memory file cannot be written") && page.contains("Go back"),
        "says why and that the text is in the browser: {page}"
    );
    assert_eq!(list.map(|r| r.status().as_u16()).ok(), Some(503));
    let ready = ready.unwrap();
    assert_eq!(ready.status(), 503);
    assert!(ready.text().await.unwrap().contains("not usable"));
    let logged = server.wait_for(|l| l.contains("the database cannot be used"));
    assert!(
        logged.contains("q.db-shm") && logged.contains("immutable"),
        "{logged}"
    );

    // The mark gone, the next write works and the document is there.
    let saved = save("Written once the file is writable").await.unwrap();
    assert_eq!(saved.status(), 303);
    let list = client.get(format!("{base}/")).send().await.unwrap();
    let list = list.text().await.unwrap();
    assert!(list.contains("Written once the file is writable"), "{list}");
    assert!(
        !list.contains("Written while the file is immutable"),
        "{list}"
    );
    server.wait_for(|l| l.contains("the database can be used again"));
}
