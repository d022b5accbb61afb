//! The admin's zip upload on the import page: what was imported and skipped,
//! who may upload, and uploads refused for their CSRF field, size or kind.

use reqwest::StatusCode;

use crate::helpers::{spawn_app, spawn_with};
use crate::transfer::{add_bob, make_zip};

/// A browser's multipart form post: the CSRF field first, then the file.
pub(crate) async fn upload(
    client: &reqwest::Client,
    address: &str,
    csrf: Option<&str>,
    file: &[u8],
) -> (StatusCode, String) {
    let mut body = Vec::new();
    if let Some(csrf) = csrf {
        body.extend_from_slice(
            format!(
                "--XBOUNDARYX\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(b"--XBOUNDARYX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.zip\"\r\nContent-Type: application/zip\r\n\r\n");
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--XBOUNDARYX--\r\n");
    let res = client
        .post(format!("{address}/admin/import"))
        .header("Content-Type", "multipart/form-data; boundary=XBOUNDARYX")
        .body(body)
        .send()
        .await
        .unwrap();
    (res.status(), res.text().await.unwrap())
}

#[tokio::test]
async fn an_admin_uploads_a_zip_and_sees_what_was_imported_and_skipped() {
    let app = spawn_app().await;
    let zip = make_zip(&[
        ("vault/Garden plan.md", b"- tomatoes\n"),
        ("vault/latin1.md", b"caf\xe9"),
        ("vault/cat.jpg", b"..."),
    ]);
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &zip).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Imported 1 document ("), "{html}");
    assert!(html.contains("vault/latin1.md"), "{html}");
    assert!(html.contains("not UTF-8"), "{html}");
    assert!(html.contains("Skipped 1 file."), "{html}");
    assert!(html.contains("Ignored 1 file that is not"), "{html}");
    let (_, list) = app.get_text("/").await;
    assert!(list.contains("Garden plan"), "the document is listed");
    let (_, audit) = app.get_text("/admin/audit").await;
    assert!(audit.contains("1 document imported from a zip, 1 file skipped"));

    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &zip).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Imported 0 documents") && html.contains("already in quire"));
}

#[tokio::test]
async fn the_import_page_works_without_javascript() {
    let app = spawn_app().await;
    let (status, html) = app.get_text("/admin/import").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"enctype="multipart/form-data""#));
    let csrf_at = html.find(r#"name="csrf""#).unwrap();
    assert!(
        csrf_at < html.find(r#"name="file""#).unwrap(),
        "the CSRF field comes first"
    );
}

#[tokio::test]
async fn only_administrators_may_import() {
    let app = spawn_app().await;
    let (bob, csrf) = add_bob(&app).await;
    let zip = make_zip(&[("a.md", b"# A\n")]);
    let (status, _) = upload(&bob, &app.address, Some(&csrf), &zip).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let res = bob
        .get(format!("{}/admin/import", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(!app.get_text("/").await.1.contains(">A<"));
}

#[tokio::test]
async fn an_upload_without_its_csrf_field_is_refused() {
    let app = spawn_app().await;
    let zip = make_zip(&[("a.md", b"# Sneaky\n")]);
    let (status, _) = upload(&app.client, &app.address, None, &zip).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = upload(&app.client, &app.address, Some(&"0".repeat(64)), &zip).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(!app.get_text("/").await.1.contains("Sneaky"));
}

#[tokio::test]
async fn uploads_over_the_limit_or_not_zips_are_refused_clearly() {
    let app = spawn_with(|c| c.max_import_bytes = 2000).await;
    let big = vec![b'x'; 5_000];
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(html.contains("larger than 2,000 bytes"), "{html}");
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), b"plain text").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(html.contains("not a zip archive"), "{html}");
}
