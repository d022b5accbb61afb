//! The JSON API against its own description (`/api/v1/openapi.json`): the
//! description validated as OpenAPI 3.1, and schemathesis (installed by
//! scripts/test.sh into .venv, as is the validator) thrown at a real server with
//! a real token, create -> get -> update with the ETag -> delete followed through
//! the description's links. A server error, an answer the description does not
//! allow (status, content type, headers, body) or a crash fails the test. Runs on
//! SQLite, and on PostgreSQL when QUIRE_TEST_POSTGRES names a server.
//! QUIRE_FUZZ_SECONDS bounds the fuzzer (default 75), QUIRE_FUZZ_SEED picks its
//! seed (default 1), QUIRE_FUZZ_CHECKS replaces the list of checks (`all` for
//! every one schemathesis has, the stricter ones included).

#[allow(dead_code, unused_imports)]
#[path = "../api/helpers.rs"]
mod helpers;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use helpers::{api_token, spawn_app};

fn tool(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".venv/bin")
        .join(name);
    assert!(
        path.exists(),
        "{name} is not installed at {}: run ./scripts/test.sh, which installs it",
        path.display()
    );
    path
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs a command to its end off the async threads (the server under test
/// keeps answering on them).
async fn run(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.stdin(Stdio::null()).output())
        .await
        .expect("the command's thread")
        .expect("the command runs")
}

fn said(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_description_is_valid_openapi_3_1_and_open_to_anyone() {
    let app = spawn_app().await;
    let stranger = reqwest::Client::new();
    let res = stranger
        .get(format!("{}/api/v1/openapi.json", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    let doc: serde_json::Value = res.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let file = app.dir.path().join("openapi.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let mut validate = Command::new(tool("openapi-spec-validator"));
    validate.args(["--schema", "3.1"]).arg(&file);
    let out = run(validate).await;
    assert!(out.status.success(), "{}", said(&out));

    // The page drawn from it: every operation, and the link to the JSON.
    let res = stranger
        .get(format!("{}/api/docs", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    for op in [
        "GET /api/v1/documents<",
        "POST /api/v1/documents<",
        "GET /api/v1/documents/{id}",
        "PUT /api/v1/documents/{id}",
        "DELETE /api/v1/documents/{id}",
    ] {
        assert!(html.contains(op), "{op} on the docs page");
    }
    assert!(html.contains("href=\"/api/v1/openapi.json\""));
    assert!(html.contains("412"), "the ETag contract is on the page");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fuzzer_finds_no_server_error_and_no_answer_the_description_does_not_allow() {
    let app = spawn_app().await;
    let token = api_token(&app.address, &app.client, &app.csrf).await;
    let seconds = setting("QUIRE_FUZZ_SECONDS", 75);
    let seed = setting("QUIRE_FUZZ_SEED", 1);
    let checks = std::env::var("QUIRE_FUZZ_CHECKS").unwrap_or_else(|_| {
        "not_a_server_error,status_code_conformance,content_type_conformance,\
         response_headers_conformance,response_schema_conformance,\
         use_after_free,ensure_resource_availability"
            .into()
    });
    // schemathesis keeps what it learns in its working folder: a fresh one.
    let work = tempfile::tempdir().unwrap();
    let mut fuzz = Command::new(tool("schemathesis"));
    fuzz.current_dir(work.path())
        .env("NO_COLOR", "1")
        .arg("run")
        .arg(format!("{}/api/v1/openapi.json", app.address))
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args([
            "--checks",
            &checks,
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--max-time",
            &seconds.to_string(),
            "--seed",
            &seed.to_string(),
            "--generation-database",
            "none",
            "--workers",
            "1",
            "--no-color",
        ]);
    let out = run(fuzz).await;
    let report = said(&out);
    println!("{report}");
    assert!(
        out.status.success(),
        "schemathesis found problems (seed {seed}; QUIRE_FUZZ_SEED={seed} repeats it):\n{report}"
    );
    // The server is still well after all of it.
    let res = reqwest::Client::new()
        .get(format!("{}/api/v1/documents", app.address))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    app.stop().await;
}
