//! `quire serve` with JSON logs: one object per line, each request's id in it.

use super::server::{Server, sign_in};

#[tokio::test]
async fn json_logs_carry_the_request_id_and_never_the_words_of_a_search() {
    let mut server = Server::start();
    let base = format!("http://127.0.0.1:{}", server.port());
    let (client, _) = sign_in(&base).await;

    let res = client
        .get(format!("{base}/search?q=marmalade+secret"))
        .header("X-Request-Id", "probe-4711.a_b")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "signed in, so the search handler ran");
    let echoed = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(res.text().await.unwrap().contains("marmalade secret"));
    let line = server.wait_for(|l| l.contains("probe-4711.a_b") && l.contains("request completed"));

    assert_eq!(echoed, "probe-4711.a_b");
    let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON object");
    let span = &json["span"];
    assert_eq!(span["request_id"], "probe-4711.a_b", "{line}");
    assert_eq!(span["method"], "GET", "{line}");
    assert_eq!(span["route"], "/search", "{line}");
    assert_eq!(span["status"], 200, "{line}");
    assert!(span["elapsed_ms"].is_number(), "{line}");
    assert_eq!(json["message"], "request completed", "{line}");
    for seen in server.stop_and_read_all() {
        serde_json::from_str::<serde_json::Value>(seen).expect("every line is JSON");
        assert!(!seen.contains("marmalade"), "user text in the log: {seen}");
    }
}

#[tokio::test]
async fn no_log_line_holds_a_document_title_or_text() {
    let mut server = Server::start();
    let base = format!("http://127.0.0.1:{}", server.port());
    let (client, csrf) = sign_in(&base).await;

    let res = client
        .post(format!("{base}/docs"))
        .form(&[
            ("title", "Quincetitle"),
            ("body", "quincebody"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303, "created");
    let path = res.headers()["location"].to_str().unwrap().to_owned();
    let page = client.get(format!("{base}{path}")).send().await.unwrap();
    assert!(page.text().await.unwrap().contains("quincebody"));
    let saved = client
        .post(format!("{base}{path}"))
        .form(&[
            ("title", "Quincetitle2"),
            ("body", "quincebody2"),
            ("version", "1"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), 303, "saved");
    let found = client
        .get(format!("{base}/search?q=quincebody2"))
        .send()
        .await
        .unwrap();
    assert!(found.text().await.unwrap().contains("Quincetitle2"));

    let lines = server.stop_and_read_all();
    assert!(
        lines.iter().any(|l| l.contains("request completed")),
        "the requests were logged"
    );
    for line in lines {
        assert!(
            !line.to_lowercase().contains("quince"),
            "a title or text in the log: {line}"
        );
    }
}
