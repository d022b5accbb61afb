//! Import and export: the round trip through the real binary and a user's own
//! export over HTTP (the admin's zip upload page: `transfer_upload.rs`).

use std::collections::BTreeMap;
use std::io::{Read, Write};

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, quire, sign_in, spawn_app};
use crate::transfer_upload::upload;

fn zip_files(bytes: &[u8]) -> BTreeMap<String, String> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            (f.name().unwrap().to_string(), text)
        })
        .collect()
}

pub(crate) fn make_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

pub(crate) async fn add_bob(app: &TestApp) -> (reqwest::Client, String) {
    quire::accounts::create_user(&app.db, "bob", PASSWORD, false)
        .await
        .unwrap();
    sign_in(&app.address, "bob", PASSWORD).await
}

#[tokio::test]
async fn export_import_export_gives_the_same_zip_byte_for_byte_with_history() {
    let app = spawn_app().await;
    let (bob, bob_csrf) = add_bob(&app).await;
    let a = app
        .create_document("Recipes", "# Bread\n\nflour, water\n")
        .await;
    app.save(&a, "Recipes", "# Bread\n\nflour, water, salt\n", 1)
        .await;
    app.save(
        &a,
        "Recipes & more",
        "# Bread\n\nflour, water, salt\n\n# Soup\n",
        2,
    )
    .await;
    // Moved and tagged at the last save: the history keeps where it was.
    app.post_form(
        &format!("/d/{a}"),
        &[
            ("title", "Recipes & more"),
            ("body", "# Bread\n\nflour, water\n"), // an old text again
            ("version", "3"),
            ("folder", "Kitchen/Bread"),
            ("tags", "baking, Family"),
        ],
    )
    .await;
    let b = app
        .create_document("日本語 \"notes\"", "---\ntags: [a, b]\n---\n検索 text\n")
        .await;
    app.post_form(
        &format!("/d/{b}/share"),
        &[("action", "visibility"), ("visibility", "read")],
    )
    .await;
    let res = bob
        .post(format!("{}/docs", app.address))
        .form(&[("title", "Bob's"), ("body", "mine"), ("csrf", &bob_csrf)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);

    let first = app.dir.path().join("first.zip");
    let out = quire(
        &app.config.database_url,
        &["export", first.to_str().unwrap(), "--history"],
    )
    .await;
    assert!(
        out.contains("exported 3 documents with 6 revisions"),
        "{out}"
    );

    let other = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", other.path().join("q.db").display());
    let mut config = app.config.clone();
    config.database_url = url.clone();
    let db = quire::db::Db::open(&config).await.unwrap();
    for name in ["bob", "alice"] {
        quire::accounts::create_user(&db, name, PASSWORD, false)
            .await
            .unwrap();
    }
    db.close().await;
    let out = quire(&url, &["import", first.to_str().unwrap()]).await;
    assert!(out.contains("imported 3 documents (6 revisions)"), "{out}");
    let second = other.path().join("second.zip");
    quire(&url, &["export", second.to_str().unwrap(), "--history"]).await;

    let (one, two) = (
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap(),
    );
    let files = zip_files(&one);
    assert_eq!(zip_files(&two), files, "same files, same texts");
    assert!(one == two, "the zips are byte-identical");

    let doc = files.iter().find(|(n, _)| n.contains(&a)).unwrap().1;
    assert!(
        doc.contains("title: \"Recipes & more\"\nowner: \"alice\"\n"),
        "{doc}"
    );
    assert!(
        doc.contains("version: 4\nfolder: \"Kitchen/Bread\"\ntags: [\"baking\",\"family\"]\n---\n# Bread\n\nflour, water\n"),
        "{doc}"
    );
    let (name, _) = files.iter().find(|(n, _)| n.contains(&a)).unwrap();
    assert!(
        name.starts_with("documents/Kitchen/Bread/recipes-more-"),
        "{name}"
    );
    let rev4 = &files[&format!("history/{a}/000004.md")];
    assert!(rev4.contains("folder: \"Kitchen/Bread\""), "{rev4}");
    let rev2 = &files[&format!("history/{a}/000002.md")];
    assert!(
        !rev2.contains("folder:") && !rev2.contains("tags:"),
        "{rev2}"
    );
    assert!(rev2.contains("author: \"alice\"") && rev2.ends_with("flour, water, salt\n"));
    let manifest: serde_json::Value = serde_json::from_str(&files["manifest.json"]).unwrap();
    assert_eq!(manifest["documents"], 3);
    assert_eq!(manifest["revisions"], 6);
    assert_eq!(manifest["files"].as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn a_vault_keeps_its_folders_and_front_matter_tags() {
    let app = spawn_app().await;
    let zip = make_zip(&[
        (
            "Projects/Garden/tomatoes.md",
            b"---\ntags:\n  - garden\n  - Summer\naliases: [toms]\n---\nRed. See [[inbox]].\n",
        ),
        ("Projects/plan.md", b"---\ntags: work, q3\n---\n# Plan\n"),
        ("inbox.md", b"loose, [[Projects/Garden/tomatoes|toms]]\n"),
    ]);
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &zip).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Imported 3 documents"), "{html}");
    // Links between the files work both ways, whichever was imported first,
    // and each page lists what links to it.
    let (_, list) = app.get_text("/").await;
    let id_of = |title: &str| {
        let at = list.find(&format!(">{title}<")).expect(title);
        let start = list[..at].rfind("/d/").unwrap() + 3;
        list[start..start + 26].to_owned()
    };
    let (tomatoes, inbox) = (id_of("tomatoes"), id_of("inbox"));
    let (_, page) = app.get_text(&format!("/d/{inbox}")).await;
    assert!(
        page.contains(&format!("href=\"/d/{tomatoes}\">toms</a>")),
        "{page}"
    );
    let (_, page) = app.get_text(&format!("/d/{tomatoes}")).await;
    assert!(
        page.contains(&format!("href=\"/d/{inbox}\">inbox</a>")),
        "{page}"
    );
    assert!(page.contains("Linked from"), "{page}");
    let (_, list) = app.get_text("/?folder=Projects").await;
    assert!(
        list.contains(">tomatoes<") && list.contains(">Plan<"),
        "{list}"
    );
    assert!(!list.contains(">inbox<"), "{list}");
    let (_, list) = app.get_text("/?tag=summer").await;
    assert!(
        list.contains(">tomatoes<") && !list.contains(">Plan<"),
        "{list}"
    );
    let (_, list) = app.get_text("/?folder=Projects/Garden&tag=garden").await;
    assert!(list.contains("1 document in Projects/Garden"), "{list}");
    // The tags left the text; the other front matter stays in it.
    let (_, list) = app.get_text("/?folder=Projects/Garden").await;
    let id = list
        .split("<a href=\"/d/")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let (_, edit) = app.get_text(&format!("/d/{id}/edit")).await;
    assert!(
        edit.contains("aliases: [toms]") && !edit.contains("  - garden"),
        "{edit}"
    );
}

#[tokio::test]
async fn a_users_export_holds_only_what_they_may_read() {
    let app = spawn_app().await;
    let (bob, csrf) = add_bob(&app).await;
    app.create_document("Alice private", "secret").await;
    let shared = app.create_document("Alice shared", "for bob").await;
    app.post_form(
        &format!("/d/{shared}/share"),
        &[("action", "share"), ("username", "bob"), ("role", "read")],
    )
    .await;
    bob.post(format!("{}/docs", app.address))
        .form(&[("title", "Bob own"), ("body", "mine"), ("csrf", &csrf)])
        .send()
        .await
        .unwrap();

    let res = bob
        .get(format!("{}/account/export?history=on", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/zip");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("quire-bob.zip")
    );
    let files = zip_files(&res.bytes().await.unwrap());
    let all: String = files.values().cloned().collect();
    assert!(all.contains("Alice shared") && all.contains("Bob own"));
    assert!(!all.contains("Alice private") && !all.contains("secret"));
    let (_, page) = app.get_text("/account").await;
    assert!(
        page.contains(r#"action="/account/export""#),
        "the account page offers it"
    );
}

#[tokio::test]
async fn the_trash_is_left_out_of_an_export() {
    let app = spawn_app().await;
    app.create_document("Kept title", "kept text").await;
    let binned = app.create_document("Binned title", "binned text").await;
    app.post_form(&format!("/d/{binned}/delete"), &[]).await;

    let res = app.get("/account/export?history=on").await;

    assert_eq!(res.status(), StatusCode::OK);
    let files = zip_files(&res.bytes().await.unwrap());
    let all: String = files.values().cloned().collect();
    assert!(all.contains("Kept title") && all.contains("kept text"));
    assert!(!all.contains("Binned"), "a trashed document was exported");
    assert!(!all.contains("binned text"));
}

#[tokio::test]
async fn documents_imported_to_render_later_are_rendered_on_first_view_and_kept() {
    let app = spawn_app().await;
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("lazy.md"), "# Lazy\n\nsome *emphasis*\n").unwrap();
    let out = quire(
        &app.config.database_url,
        &["import", src.path().to_str().unwrap(), "--render-later"],
    )
    .await;
    assert!(out.contains("imported 1 documents"), "{out}");

    let (_, list) = app.get_text("/").await;
    let id = list.split("href=\"/d/").nth(1).unwrap()[..26].to_owned();
    let (status, html) = app.get_text(&format!("/d/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<em>emphasis</em>"), "{html}");
    let stored: (Option<Vec<u8>>, i64) =
        quire::db::query_as("SELECT html_z, render_version FROM documents WHERE id = $1")
            .bind(&id)
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    let page = zstd::stream::decode_all(stored.0.expect("a stored page").as_slice()).unwrap();
    assert!(
        String::from_utf8(page)
            .unwrap()
            .contains("<em>emphasis</em>"),
        "the HTML is stored (compressed) once made"
    );
    assert_eq!(stored.1, quire::documents::RENDER_VERSION);
}
