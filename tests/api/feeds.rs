//! The Atom feed of recent changes, read as a feed reader reads it (Python's
//! `feedparser`, installed into `.venv` by scripts/test.sh): opened by a
//! person's token, it holds what they may read when it is fetched.

use reqwest::StatusCode;

use crate::helpers::{Person, create_in, location, new_client, spawn_app, team_space};

/// Entries of the feed at `url` as feedparser reads them: (title, link).
async fn read_feed(url: &str) -> (StatusCode, Vec<(String, String)>) {
    let res = new_client().get(url).send().await.unwrap();
    let status = res.status();
    if status != StatusCode::OK {
        return (status, Vec::new());
    }
    let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(kind.starts_with("application/atom+xml"), "{kind}");
    let body = res.bytes().await.unwrap();
    let python = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/python");
    assert!(
        std::path::Path::new(python).exists(),
        "feedparser is not installed: run scripts/test.sh (it installs it into .venv)"
    );
    let mut child = std::process::Command::new(python)
        .args([
            "-c",
            "import feedparser, json, sys\n\
             f = feedparser.parse(sys.stdin.buffer.read())\n\
             assert not f.bozo, f.bozo_exception\n\
             print(json.dumps([[e.title, e.link] for e in f.entries]))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python");
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&body).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "feedparser refused the feed");
    (status, serde_json::from_slice(&out.stdout).unwrap())
}

/// Makes the person's feed address on the account page; the address.
async fn feed_address(person: &Person) -> String {
    let res = person.post("/account/feed", &[]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    page.split(r#"id="feed-url" readonly value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page shows the feed's address once")
        .to_owned()
}

#[tokio::test]
async fn a_feed_holds_what_its_reader_may_read_when_it_is_fetched() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let team = team_space(&app).await;
    let roadmap = create_in(&app, "Team roadmap", "a", &team).await;
    app.save(&roadmap, "Team roadmap", "a\nb", 1).await;
    let secret = app.create_document("Board minutes", "secret").await;

    let url = feed_address(&bob).await;
    let (status, entries) = read_feed(&url).await;
    assert_eq!(status, StatusCode::OK);
    let titles: Vec<&str> = entries.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        titles,
        ["Team roadmap: edited (2 saves) by alice"],
        "{entries:?}"
    );
    assert!(entries[0].1.ends_with(&format!("/d/{roadmap}/r/2")));

    // Shared with bob: in his feed at the next fetch; unshared: gone again.
    let share = [("action", "share"), ("username", "bob"), ("role", "read")];
    app.post_form(&format!("/d/{secret}/share"), &share).await;
    let (_, entries) = read_feed(&url).await;
    assert!(entries.iter().any(|(t, _)| t.starts_with("Board minutes")));
    let bob_id: i64 = quire::db::query_scalar("SELECT id FROM users WHERE username = 'bob'")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let unshare = [("action", "unshare"), ("user_id", &bob_id.to_string()[..])];
    app.post_form(&format!("/d/{secret}/share"), &unshare).await;
    let (_, entries) = read_feed(&url).await;
    assert!(
        !entries.iter().any(|(t, _)| t.contains("Board")),
        "{entries:?}"
    );

    // One document's feed.
    let (_, entries) = read_feed(&format!("{url}?doc={secret}")).await;
    assert!(entries.is_empty());
    let (_, entries) = read_feed(&format!("{url}?doc={roadmap}")).await;
    assert_eq!(entries.len(), 1);
}

#[tokio::test]
async fn a_new_address_or_turning_the_feed_off_closes_the_old_one() {
    let app = spawn_app().await;
    let bob = Person::new(&app, "bob").await;
    let first = feed_address(&bob).await;
    assert_eq!(read_feed(&first).await.0, StatusCode::OK);
    let second = feed_address(&bob).await;
    assert_ne!(first, second);
    assert_eq!(read_feed(&first).await.0, StatusCode::NOT_FOUND);
    assert_eq!(read_feed(&second).await.0, StatusCode::OK);
    let res = bob.post("/account/feed/revoke", &[]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(location(&res).contains("m=feed-revoked"));
    assert_eq!(read_feed(&second).await.0, StatusCode::NOT_FOUND);
    // Anything else in the token's place is missing too, never an error.
    let base = second.rsplit_once('/').unwrap().0;
    for token in ["x", &"f".repeat(64), &"é".repeat(32)] {
        assert_eq!(
            read_feed(&format!("{base}/{token}")).await.0,
            StatusCode::NOT_FOUND
        );
    }
}
