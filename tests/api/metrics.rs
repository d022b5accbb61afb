//! What an operator sees: /metrics, who may read it, and request ids.

use reqwest::StatusCode;

use crate::helpers::{new_client, spawn_app, spawn_with};

async fn scrape(address: &str) -> String {
    let res = new_client()
        .get(format!("{address}/metrics"))
        .send()
        .await
        .expect("GET /metrics");
    assert_eq!(res.status(), StatusCode::OK);
    res.text().await.expect("body")
}

/// The value of the sample whose name and labels are exactly `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
}

#[tokio::test]
async fn viewing_a_document_counts_under_its_route_pattern_with_a_latency_histogram() {
    let app = spawn_app().await;
    let id = app.create_document("Counted", "body").await;
    let series = r#"quire_http_requests_total{route="/d/{id}",method="GET",status="200"}"#;
    let before = sample(&scrape(&app.address).await, series).unwrap_or(0.0);

    assert_eq!(app.get(&format!("/d/{id}")).await.status(), StatusCode::OK);
    let text = scrape(&app.address).await;

    assert_eq!(sample(&text, series), Some(before + 1.0), "{text}");
    assert!(
        !text.contains(&id),
        "raw paths never become labels:\n{text}"
    );
    let labels = r#"route="/d/{id}",method="GET""#;
    assert!(text.contains(&format!(
        "quire_http_request_duration_seconds_bucket{{{labels},le=\"0.001\"}}"
    )));
    let inf = format!("quire_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}}");
    let count = format!("quire_http_request_duration_seconds_count{{{labels}}}");
    assert_eq!(sample(&text, &inf), sample(&text, &count));
    assert!(
        sample(
            &text,
            &format!("quire_http_request_duration_seconds_sum{{{labels}}}")
        )
        .is_some()
    );
    assert!(text.contains("# TYPE quire_http_request_duration_seconds histogram"));
}

#[tokio::test]
async fn paths_no_route_matches_are_counted_as_unmatched() {
    let app = spawn_app().await;

    let res = app.get("/no/such/page-abc").await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let text = scrape(&app.address).await;

    let series = r#"quire_http_requests_total{route="unmatched",method="GET",status="404"}"#;
    assert_eq!(sample(&text, series), Some(1.0), "{text}");
    assert!(!text.contains("page-abc"));
}

#[tokio::test]
async fn document_gauges_count_live_and_trashed_documents() {
    let app = spawn_app().await;
    for n in 0..3 {
        app.create_document(&format!("Doc {n}"), "text").await;
    }
    let gone = app.create_document("Gone", "text").await;
    app.post_form(&format!("/d/{gone}/delete"), &[]).await;

    let text = scrape(&app.address).await;

    assert_eq!(sample(&text, r#"quire_documents{state="live"}"#), Some(3.0));
    assert_eq!(
        sample(&text, r#"quire_documents{state="trash"}"#),
        Some(1.0)
    );
}

#[tokio::test]
async fn pool_gauges_and_the_writer_wait_are_reported() {
    let app = spawn_app().await;
    app.create_document("A write", "text").await;

    let text = scrape(&app.address).await;

    for pool in ["read", "write"] {
        for state in ["idle", "in_use"] {
            let series = format!("quire_db_pool_connections{{pool=\"{pool}\",state=\"{state}\"}}");
            assert!(sample(&text, &series).is_some(), "{series} in:\n{text}");
        }
    }
    // SQLite: one writer connection; PostgreSQL: one pool for both.
    let writers = if crate::helpers::on_postgres() {
        app.config.db_connections as f64
    } else {
        1.0
    };
    assert_eq!(
        sample(&text, r#"quire_db_pool_max_connections{pool="write"}"#),
        Some(writers)
    );
    let waits = sample(&text, "quire_db_writer_wait_seconds_count").unwrap_or(0.0);
    assert!(waits >= 1.0, "{text}");
    assert!(text.contains("quire_db_writer_wait_seconds_bucket{le=\"+Inf\"}"));
    assert!(text.contains(&format!(
        "quire_build_info{{version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(sample(&text, "quire_process_start_time_seconds").is_some_and(|t| t > 1.0e9));
    assert!(
        !text.contains("quire_replication_lag_seconds"),
        "no replica, no lag"
    );
}

#[tokio::test]
async fn without_a_token_metrics_answers_loopback_but_not_a_forwarded_request() {
    let app = spawn_app().await;

    let direct = new_client()
        .get(format!("{}/metrics", app.address))
        .send()
        .await
        .expect("GET");
    let proxied = new_client()
        .get(format!("{}/metrics", app.address))
        .header("X-Forwarded-For", "203.0.113.9")
        .send()
        .await
        .expect("GET");

    assert_eq!(direct.status(), StatusCode::OK, "no session needed");
    assert_eq!(proxied.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn with_a_token_metrics_refuses_a_missing_or_wrong_one() {
    let app = spawn_with(|c| c.metrics_token = Some("s3cret-scrape".parse().unwrap())).await;
    let url = format!("{}/metrics", app.address);
    let client = new_client();

    let missing = client.get(&url).send().await.expect("GET");
    let wrong = client
        .get(&url)
        .bearer_auth("s3cret-scrapf")
        .send()
        .await
        .expect("GET");
    let right = client
        .get(&url)
        .bearer_auth("s3cret-scrape")
        .header("X-Forwarded-For", "203.0.113.9")
        .send()
        .await
        .expect("GET");

    assert_eq!(missing.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        right.status(),
        StatusCode::OK,
        "the token works from anywhere"
    );
    assert!(right.text().await.unwrap().contains("quire_documents"));
}

fn request_id(res: &reqwest::Response) -> String {
    res.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("an X-Request-Id header")
        .to_owned()
}

#[tokio::test]
async fn every_response_carries_its_own_request_id() {
    let app = spawn_app().await;

    let page = app.get("/").await;
    let again = app.get("/").await;
    let missing = app.get("/no/such/page").await;
    let probe = new_client()
        .get(format!("{}/healthz", app.address))
        .send()
        .await
        .expect("GET");

    let ids: Vec<String> = [&page, &again, &missing, &probe]
        .into_iter()
        .map(request_id)
        .collect();
    for id in &ids {
        assert_eq!(id.len(), 16, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
}

#[tokio::test]
async fn a_valid_request_id_is_echoed_and_an_invalid_one_replaced() {
    let app = spawn_app().await;
    let send = |id: String| {
        let url = format!("{}/healthz", app.address);
        async move {
            new_client()
                .get(url)
                .header("X-Request-Id", id)
                .send()
                .await
                .expect("GET")
        }
    };

    let valid = send("lb-7f3a.9_Z".into()).await;
    let too_long = send("a".repeat(65)).await;
    let odd = send("two words".into()).await;

    assert_eq!(request_id(&valid), "lb-7f3a.9_Z");
    for res in [&too_long, &odd] {
        let id = request_id(res);
        assert_eq!(id.len(), 16, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    }
}
