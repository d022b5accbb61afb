//! Files attached to documents: uploaded from the editor (with and without
//! JavaScript), shown where the text names them, served with the type their
//! bytes say and never as a page, readable exactly when the document is, and
//! collected when no document names them any more.

use reqwest::{StatusCode, header};

use crate::helpers::{TestApp, someone_elses_private_document, spawn_app, spawn_with, textareas};

pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\0\x05\0\x01\xff\x89\x99=\x1d\0\0\0\0IEND\xaeB`\x82";

/// A multipart body: `fields` in order (the CSRF field first, as quire's forms
/// put it), then the file, if any.
pub fn multipart(fields: &[(&str, &str)], file: Option<(&str, &[u8])>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--XB\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    if let Some((name, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--XB\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--XB--\r\n");
    body
}

/// As the editor's script sends a file: the CSRF token in a header.
pub async fn attach(
    client: &reqwest::Client,
    app: &TestApp,
    csrf: &str,
    id: &str,
    name: &str,
    bytes: &[u8],
) -> (StatusCode, serde_json::Value) {
    let res = client
        .post(format!("{}/d/{id}/attachments", app.address))
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
        .header("X-CSRF-Token", csrf)
        .body(multipart(&[], Some((name, bytes))))
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or_default())
}

async fn fetch(client: &reqwest::Client, app: &TestApp, path: &str) -> reqwest::Response {
    client
        .get(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap()
}

fn header_of(res: &reqwest::Response, name: header::HeaderName) -> String {
    res.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn an_attached_image_shows_in_the_text_and_is_served_safely() {
    let app = spawn_app().await;
    let id = app.create_document("Garden", "Before.").await;
    let (status, answer) = attach(&app.client, &app, &app.csrf, &id, "My Photo.png", PNG).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(answer["name"], "My-Photo.png");
    assert_eq!(answer["markdown"], "![My-Photo.png](My-Photo.png)");
    assert_eq!(answer["media_type"], "image/png");
    let url = answer["url"].as_str().unwrap().to_owned();
    assert_eq!(url, format!("/d/{id}/files/My-Photo.png"));

    let res = app
        .save(
            &id,
            "Garden",
            "Before.\n\n![My-Photo.png](My-Photo.png)\n",
            1,
        )
        .await;
    assert!(res.status().is_redirection(), "{}", res.status());
    let (_, page) = app.get_text(&format!("/d/{id}")).await;
    assert!(page.contains(&format!("<img src=\"{url}\"")), "{page}");

    let res = fetch(&app.client, &app, &url).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header_of(&res, header::CONTENT_TYPE), "image/png");
    assert_eq!(header_of(&res, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    assert_eq!(header_of(&res, header::CACHE_CONTROL), "private, no-cache");
    assert!(header_of(&res, header::CONTENT_SECURITY_POLICY).contains("sandbox"));
    let etag = header_of(&res, header::ETAG);
    assert_eq!(res.bytes().await.unwrap().as_ref(), PNG);
    let again = app
        .client
        .get(format!("{}{url}", app.address))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // The same content again is the same file; other content under the name is numbered.
    let (_, same) = attach(&app.client, &app, &app.csrf, &id, "My Photo.png", PNG).await;
    assert_eq!(same["name"], "My-Photo.png");
    let mut other = PNG.to_vec();
    other.push(0);
    let (_, second) = attach(&app.client, &app, &app.csrf, &id, "My Photo.png", &other).await;
    assert_eq!(second["name"], "My-Photo-2.png");

    // A page or a script is never served as one, whatever its name says.
    for (name, bytes) in [
        ("evil.png", b"<html><script>alert(1)</script>".as_slice()),
        (
            "logo.svg",
            b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
        ),
        ("tool.exe", b"MZ\x90\0\x03\0\0\0"),
    ] {
        let (status, answer) = attach(&app.client, &app, &app.csrf, &id, name, bytes).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        assert!(
            answer["markdown"].as_str().unwrap().starts_with('['),
            "{answer}"
        );
        let res = fetch(&app.client, &app, answer["url"].as_str().unwrap()).await;
        assert_eq!(
            header_of(&res, header::CONTENT_TYPE),
            "application/octet-stream",
            "{name}"
        );
        assert!(
            header_of(&res, header::CONTENT_DISPOSITION).starts_with("attachment"),
            "{name}"
        );
    }
    let (_, notes) = attach(
        &app.client,
        &app,
        &app.csrf,
        &id,
        "notes.txt",
        b"plain words\n",
    )
    .await;
    let res = fetch(&app.client, &app, notes["url"].as_str().unwrap()).await;
    assert_eq!(
        header_of(&res, header::CONTENT_TYPE),
        "text/plain; charset=utf-8"
    );

    // Nothing to attach, or no such file.
    let (status, _) = attach(&app.client, &app, &app.csrf, &id, "empty.png", b"").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let res = fetch(&app.client, &app, &format!("/d/{id}/files/nothing.png")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn files_are_readable_exactly_when_their_document_is() {
    let app = spawn_app().await;
    let (bob, bob_csrf, secret) =
        someone_elses_private_document(&app, "bob", &[("title", "Secret"), ("body", "x")]).await;
    let (status, answer) = attach(&bob, &app, &bob_csrf, &secret, "plan.png", PNG).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let url = answer["url"].as_str().unwrap().to_owned();
    assert_eq!(fetch(&bob, &app, &url).await.status(), StatusCode::OK);

    // Another user: not found, for the file, a guessed name and an upload alike.
    quire::accounts::create_user(&app.db, "carol", crate::helpers::PASSWORD, false)
        .await
        .unwrap();
    let (carol, carol_csrf) =
        crate::helpers::sign_in(&app.address, "carol", crate::helpers::PASSWORD).await;
    assert_eq!(
        fetch(&carol, &app, &url).await.status(),
        StatusCode::NOT_FOUND
    );
    let guessed = format!("/d/{secret}/files/other.png");
    assert_eq!(
        fetch(&carol, &app, &guessed).await.status(),
        StatusCode::NOT_FOUND
    );
    let (status, _) = attach(&carol, &app, &carol_csrf, &secret, "x.png", PNG).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Without the CSRF token, nothing is attached.
    let (status, _) = attach(&bob, &app, "forged", &secret, "x.png", PNG).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // A public link shows the page's images to anyone holding it, from the link.
    let res = bob
        .post(format!("{}/d/{secret}/share", app.address))
        .form(&[("action", "link-on"), ("csrf", &bob_csrf)])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success() || res.status().is_redirection());
    let res = bob
        .post(format!("{}/d/{secret}", app.address))
        .form(&[
            ("title", "Secret"),
            ("body", "![plan](plan.png)"),
            ("version", "1"),
            ("csrf", &bob_csrf),
        ])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_redirection(), "{}", res.status());
    let (_, share) = {
        let res = fetch(&bob, &app, &format!("/d/{secret}/share")).await;
        (res.status(), res.text().await.unwrap())
    };
    let token = share
        .split("/p/")
        .nth(1)
        .and_then(|rest| rest.split(['"', '<']).next())
        .map(str::to_owned);
    if let Some(token) = token {
        let stranger = crate::helpers::new_client();
        let page = fetch(&stranger, &app, &format!("/p/{token}")).await;
        let page = page.text().await.unwrap();
        assert!(
            page.contains(&format!("src=\"/p/{token}/files/plan.png\"")),
            "{page}"
        );
        assert!(
            !page.contains(&secret),
            "the public page does not name the document"
        );
        let res = fetch(&stranger, &app, &format!("/p/{token}/files/plan.png")).await;
        assert_eq!(res.status(), StatusCode::OK);
        let res = fetch(&stranger, &app, &format!("/p/{token}x/files/plan.png")).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    } else {
        panic!("no public link on the share page: {share}");
    }
}

#[tokio::test]
async fn without_javascript_the_editor_attaches_and_a_refusal_keeps_the_text() {
    let app = spawn_with(|c| c.max_attachment_bytes = 1000).await;
    let id = app.create_document("Notes", "My own words").await;
    let send = |file: Option<(&'static str, Vec<u8>)>| {
        let body = multipart(
            &[
                ("csrf", &app.csrf),
                ("doc", &id),
                ("title", "Notes"),
                ("body", "My own words, changed"),
                ("version", "1"),
            ],
            file.as_ref().map(|(n, b)| (*n, b.as_slice())),
        );
        app.client
            .post(format!("{}/d/{id}/attachments", app.address))
            .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
            .body(body)
            .send()
    };
    let res = send(Some(("big.png", vec![0x89; 2000]))).await.unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let page = res.text().await.unwrap();
    assert!(page.contains("larger than"), "{page}");
    assert_eq!(textareas(&page), vec!["My own words, changed"]);

    let res = send(Some(("small.png", PNG.to_vec()))).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let page = res.text().await.unwrap();
    assert!(page.contains("Attached small.png"), "{page}");
    assert_eq!(
        textareas(&page),
        vec!["My own words, changed\n\n![small.png](small.png)\n"]
    );
    assert!(page.contains("Files of this document (1)"), "{page}");
    let (_, editor) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(
        editor.contains(&format!("href=\"/d/{id}/files/small.png\"")),
        "the editor lists the file: {editor}"
    );
    // Attaching does not save the text.
    let (_, shown) = app.get_text(&format!("/d/{id}")).await;
    assert!(shown.contains("My own words") && !shown.contains("My own words, changed"));
    let res = send(None).await.unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn emptying_the_trash_collects_files_no_document_names() {
    let app = spawn_app().await;
    let first = app.create_document("First", "x").await;
    let second = app.create_document("Second", "y").await;
    let big = [PNG, &[7u8; 3000]].concat();
    for id in [&first, &second] {
        let (status, _) = attach(&app.client, &app, &app.csrf, id, "shared.png", &big).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, account) = app.get_text("/account").await;
    assert!(account.contains("(in the trash too): 3 KiB."), "{account}");

    let stored = || async {
        quire::db::query_scalar::<i64>("SELECT COUNT(*) FROM attachments")
            .fetch_one(&app.db.read)
            .await
            .unwrap()
    };
    for (id, left) in [(&first, 1), (&second, 0)] {
        let res = app.post_form(&format!("/d/{id}/delete"), &[]).await;
        assert!(res.status().is_redirection() || res.status().is_success());
        let res = app.post_form("/trash/empty", &[("confirm", "yes")]).await;
        assert!(res.status().is_redirection() || res.status().is_success());
        assert_eq!(stored().await, left, "after purging {id}");
    }
    let (_, account) = app.get_text("/account").await;
    assert!(account.contains("(in the trash too): 0 B."), "{account}");
}

#[tokio::test]
async fn the_json_api_lists_uploads_and_downloads_with_the_same_rules() {
    let app = spawn_app().await;
    let token = crate::helpers::api_token(&app.address, &app.client, &app.csrf).await;
    let api = crate::helpers::new_client();
    let id = app.create_document("Report", "x").await;
    let base = format!("{}/api/v1/documents/{id}/attachments", app.address);
    let res = api
        .post(&base)
        .bearer_auth(&token)
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
        .body(multipart(&[], Some(("scan.pdf", b"%PDF-1.7 minimal"))))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let made: serde_json::Value = res.json().await.unwrap();
    assert_eq!(made["name"], "scan.pdf");
    assert_eq!(made["media_type"], "application/pdf");
    assert_eq!(made["sha256"].as_str().unwrap().len(), 64);

    let list: serde_json::Value = api
        .get(&base)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["attachments"][0]["name"], "scan.pdf");
    let res = api
        .get(format!("{base}/scan.pdf"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header_of(&res, header::CONTENT_TYPE), "application/pdf");
    assert_eq!(res.bytes().await.unwrap().as_ref(), b"%PDF-1.7 minimal");

    // Another user's token: not found; no file: 422; without a token: 401.
    let (bob, bob_csrf, _) =
        someone_elses_private_document(&app, "bob", &[("title", "B"), ("body", "b")]).await;
    let bob_token = crate::helpers::api_token(&app.address, &bob, &bob_csrf).await;
    let res = api.get(&base).bearer_auth(&bob_token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = api
        .get(format!("{base}/scan.pdf"))
        .bearer_auth(&bob_token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = api
        .post(&base)
        .bearer_auth(&token)
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
        .body(multipart(&[("other", "x")], None))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        api.get(&base).send().await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
}
