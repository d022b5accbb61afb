//! First run: on a database without accounts, `quire serve` prints a one-time
//! setup link; the sign-in page says where to find it; the link makes the first
//! administrator, signs them in with a welcome document, and then works no more.

use super::server::{Server, anonymous, csrf_of};

#[tokio::test]
async fn the_setup_link_from_the_log_makes_the_first_administrator_once() {
    let mut server = Server::start_empty();
    let base = format!("http://127.0.0.1:{}", server.port());
    let line = server.wait_for(|l| l.contains("/setup/"));
    let link = line
        .split_whitespace()
        .find_map(|w| w.split("/setup/").nth(1))
        .map(|t| t.trim_matches(|c: char| !c.is_ascii_hexdigit()).to_owned())
        .expect("a setup link in the log");
    assert_eq!(link.len(), 64, "{line}");

    let (client, _) = anonymous(&base).await;
    let login = client.get(format!("{base}/login")).send().await.unwrap();
    let page = login.text().await.unwrap();
    assert!(page.contains("No accounts yet"), "{page}");

    let wrong = client
        .get(format!("{base}/setup/{}", "0".repeat(64)))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 404);

    let form = client
        .get(format!("{base}/setup/{link}"))
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 200);
    let csrf = csrf_of(&form.text().await.unwrap());
    let short = client
        .post(format!("{base}/setup/{link}"))
        .form(&[("username", "root"), ("password", "short"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(
        short.status(),
        422,
        "a refused password keeps the link good"
    );
    let made = client
        .post(format!("{base}/setup/{link}"))
        .form(&[
            ("username", "root"),
            ("password", "a long enough password"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 303);
    let welcome = made.headers()["location"].to_str().unwrap().to_owned();
    assert!(welcome.starts_with("/d/"), "{welcome}");
    let doc = client.get(format!("{base}{welcome}")).send().await.unwrap();
    assert_eq!(doc.status(), 200, "signed in as the new administrator");
    let doc = doc.text().await.unwrap();
    assert!(doc.contains("Welcome to quire") && doc.contains("Markdown in one minute"));
    let admin = client
        .get(format!("{base}/admin/users"))
        .send()
        .await
        .unwrap();
    assert_eq!(admin.status(), 200, "the first account is an administrator");

    let (again, _) = anonymous(&base).await;
    let used = again
        .get(format!("{base}/setup/{link}"))
        .send()
        .await
        .unwrap();
    assert_eq!(used.status(), 404, "the link works once");
    let login = again.get(format!("{base}/login")).send().await.unwrap();
    assert!(!login.text().await.unwrap().contains("No accounts yet"));
}

#[tokio::test]
async fn a_server_with_accounts_prints_no_setup_link() {
    let mut server = Server::start();
    let _ = server.port();
    let lines = server.stop_and_read_all();
    assert!(!lines.iter().any(|l| l.contains("/setup/")), "{lines:?}");
}
