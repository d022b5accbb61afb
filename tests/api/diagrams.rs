//! Diagrams: the frame page Mermaid draws in has a policy of its own (inline
//! styles, nothing else loosened) that no other page shares, needs no session,
//! and Mermaid itself is served compressed to browsers and plain to others.

use reqwest::StatusCode;
use reqwest::header;

use crate::helpers::spawn_app;

#[tokio::test]
async fn the_diagram_frame_alone_allows_inline_styles_and_only_for_quire_pages() {
    let app = spawn_app().await;
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = plain
        .get(format!("{}/diagram", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "no session needed");
    let csp = res.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("style-src 'unsafe-inline'"), "{csp}");
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-eval"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'self'") && csp.contains("default-src 'none'"));
    assert_eq!(res.headers()[header::X_FRAME_OPTIONS], "SAMEORIGIN");
    let html = res.text().await.unwrap();
    let mermaid = html
        .split("<script src=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the frame loads mermaid")
        .to_owned();
    assert!(mermaid.ends_with("/mermaid.min.js"), "{mermaid}");

    // Every other page keeps the strict policy and refuses to be framed.
    let res = app.get("/").await;
    let csp = res.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(!csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"));

    // Mermaid: gzip as it is stored to a browser, plain to a client without gzip.
    let res = plain
        .get(format!("{}{mermaid}", app.address))
        .header(header::ACCEPT_ENCODING, "gzip, deflate, br")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()[header::CONTENT_ENCODING], "gzip");
    let packed = res.bytes().await.unwrap();
    assert!(packed.len() < 1_500_000 && packed.starts_with(&[0x1f, 0x8b]));
    let res = plain
        .get(format!("{}{mermaid}", app.address))
        .header(header::ACCEPT_ENCODING, "identity")
        .send()
        .await
        .unwrap();
    assert!(res.headers().get(header::CONTENT_ENCODING).is_none());
    let body = res.bytes().await.unwrap();
    assert!(body.len() > 3_000_000, "{}", body.len());
    assert!(String::from_utf8_lossy(&body[..2000]).contains("mermaid"));
    let res = plain
        .get(format!("{}{mermaid}", app.address))
        .header(header::ACCEPT_ENCODING, "gzip;q=0, identity")
        .send()
        .await
        .unwrap();
    assert!(
        res.headers().get(header::CONTENT_ENCODING).is_none(),
        "gzip;q=0 refuses it"
    );
}
