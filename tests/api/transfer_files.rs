//! Import and export carry documents' files: a vault's images come in with the
//! notes that show them, and quire's own export brings every file back, byte
//! for byte.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use reqwest::StatusCode;

use crate::attachments::{PNG, attach};
use crate::helpers::{TestApp, spawn_app, spawn_with};

fn make_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn zip_files(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            (f.name().unwrap().to_string(), data)
        })
        .collect()
}

/// The admin's zip upload, as a browser's form sends it.
async fn upload(app: &TestApp, file: &[u8]) -> String {
    let mut body = format!(
        "--XBOUNDARYX\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{}\r\n\
         --XBOUNDARYX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"n.zip\"\r\n\
         Content-Type: application/zip\r\n\r\n",
        app.csrf
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--XBOUNDARYX--\r\n");
    let res = app
        .client
        .post(format!("{}/admin/import", app.address))
        .header("Content-Type", "multipart/form-data; boundary=XBOUNDARYX")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    res.text().await.unwrap()
}

async fn bytes_of(app: &TestApp, path: &str) -> (StatusCode, Vec<u8>) {
    let res = app.get(path).await;
    (res.status(), res.bytes().await.unwrap().to_vec())
}

async fn export(app: &TestApp) -> Vec<u8> {
    let res = app.get("/account/export?history=on").await;
    assert_eq!(res.status(), StatusCode::OK);
    res.bytes().await.unwrap().to_vec()
}

/// The id of the listed document called `title`.
fn id_of(list: &str, title: &str) -> String {
    let at = list.find(&format!(">{title}<")).expect(title);
    let start = list[..at].rfind("/d/").unwrap() + 3;
    list[start..start + 26].to_owned()
}

#[tokio::test]
async fn a_vaults_images_come_in_with_the_notes_that_show_them() {
    let app = spawn_with(|c| c.max_attachment_bytes = 1000).await;
    let big = [PNG, &[0u8; 2000]].concat();
    let zip = make_zip(&[
        (
            "Projects/Garden/tomatoes.md",
            b"---\ntags: [garden]\n---\nRed. See [[inbox]].\n\n![[photo.png]] ![](big.png)\n",
        ),
        (
            "Projects/Garden/beans.md",
            b"Green.\n\n![a bean](../../attachments/photo.png)\n![[Another note]]\n",
        ),
        (
            "inbox.md",
            b"Loose. [[tomatoes]]\n\n![](attachments/photo.png) ![](gone.png)\n",
        ),
        ("attachments/photo.png", PNG),
        ("attachments/big.png", &big),
        ("attachments/unused.pdf", b"%PDF-1.7 nobody shows me"),
    ]);
    let html = upload(&app, &zip).await;
    assert!(html.contains("Imported 3 documents"), "{html}");
    // photo.png with each of the three notes; big.png was over the limit.
    assert!(
        html.contains("Attached 3 files to the documents that show them."),
        "{html}"
    );
    assert!(
        html.contains("Ignored 1 file"),
        "only the unused PDF: {html}"
    );
    assert!(
        html.contains("inbox.md shows gone.png, which is not in the import"),
        "{html}"
    );
    assert!(
        html.contains("tomatoes.md shows attachments/big.png, which was not imported"),
        "{html}"
    );
    assert!(html.contains("QUIRE_MAX_ATTACHMENT_BYTES"), "{html}");
    assert!(
        !html.contains("Another note"),
        "a note's embed is no file: {html}"
    );

    let (_, list) = app.get_text("/").await;
    let (tomatoes, beans, inbox) = (
        id_of(&list, "tomatoes"),
        id_of(&list, "beans"),
        id_of(&list, "inbox"),
    );
    for (id, url) in [
        (&tomatoes, format!("/d/{tomatoes}/files/photo.png")),
        (
            &beans,
            format!("/d/{beans}/files/..%2F..%2Fattachments%2Fphoto.png"),
        ),
        (&inbox, format!("/d/{inbox}/files/attachments/photo.png")),
    ] {
        let (status, page) = app.get_text(&format!("/d/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains(&format!("<img src=\"{url}\"")), "{page}");
        let (status, bytes) = bytes_of(&app, &url).await;
        assert_eq!(status, StatusCode::OK, "{url}");
        assert_eq!(bytes, PNG, "{url}");
    }
    let (_, page) = app.get_text(&format!("/d/{tomatoes}")).await;
    assert!(
        page.contains(&format!("href=\"/d/{inbox}\">inbox</a>")),
        "{page}"
    );
    let (_, list) = app.get_text("/?tag=garden").await;
    assert!(list.contains(">tomatoes<") && !list.contains(">beans<"));
    let (_, list) = app.get_text("/?folder=Projects/Garden").await;
    assert!(list.contains(">tomatoes<") && list.contains(">beans<"));

    // Exported, the vault keeps its folders, file names, tags, links and images.
    let out = zip_files(&export(&app).await);
    for name in [
        "documents/Projects/Garden/tomatoes.md",
        "documents/Projects/Garden/beans.md",
        "documents/inbox.md",
        "attachments/photo.png",
    ] {
        assert!(out.contains_key(name), "{name} in {:?}", out.keys());
    }
    let note = String::from_utf8(out["documents/Projects/Garden/tomatoes.md"].clone()).unwrap();
    assert!(note.contains("tags: [\"garden\"]"), "{note}");
    assert!(
        note.ends_with("Red. See [[inbox]].\n\n![[photo.png]] ![](big.png)\n"),
        "{note}"
    );
    assert_eq!(out["attachments/photo.png"], PNG);
}

#[tokio::test]
async fn an_export_with_files_imports_and_exports_again_byte_for_byte() {
    let app = spawn_app().await;
    let other_png = [PNG, b"another picture"].concat();
    let a = app.create_document("Garden", "Before.").await;
    let b = app.create_document("Kitchen", "Before.").await;
    let c = app.create_document("Shed", "Before.").await;
    for (id, name, bytes) in [
        (&a, "photo.png", PNG),
        (&a, "report.pdf", b"%PDF-1.7 numbers".as_slice()),
        (&a, "notes.txt", b"plain words\n".as_slice()),
        (&b, "photo.png", PNG),
        (&c, "photo.png", other_png.as_slice()),
    ] {
        let (status, answer) = attach(&app.client, &app, &app.csrf, id, name, bytes).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    let shows = format!("![](photo.png) and [the report](/d/{a}/files/report.pdf)\n");
    app.save(&a, "Garden", &shows, 1).await;
    app.save(&b, "Kitchen", "![[photo.png]]\n", 1).await;
    app.save(&c, "Shed", "![](photo.png)\n", 1).await;

    let first = export(&app).await;
    let files = zip_files(&first);
    let manifest: serde_json::Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
    assert_eq!(manifest["documents"], 3);
    let uses = manifest["attachments"].as_array().unwrap();
    assert_eq!(uses.len(), 5, "{uses:?}");
    let path_of = |id: &str, name: &str| {
        let at = uses
            .iter()
            .find(|u| u["document"] == id && u["name"] == name)
            .unwrap_or_else(|| panic!("{id} {name}: {uses:?}"));
        at["path"].as_str().unwrap().to_owned()
    };
    assert_eq!(path_of(&a, "photo.png"), path_of(&b, "photo.png"), "once");
    assert_eq!(files[&path_of(&a, "photo.png")], PNG);
    assert_eq!(files[&path_of(&c, "photo.png")], other_png);
    // Whichever comes first (by id) has the plain path; the other content
    // the start of its hash in front.
    let mut photos = [path_of(&a, "photo.png"), path_of(&c, "photo.png")];
    photos.sort_by_key(|p| p.len());
    assert_eq!(photos[0], "attachments/photo.png");
    assert!(
        photos[1].starts_with("attachments/") && photos[1].ends_with("-photo.png"),
        "{photos:?}"
    );
    assert_eq!(photos[1].len(), "attachments/12345678-photo.png".len());
    assert_eq!(files["attachments/notes.txt"], b"plain words\n");
    let listed = manifest["files"].as_array().unwrap();
    assert!(listed.iter().any(|f| f["path"] == "attachments/report.pdf"));
    assert_eq!(listed.len(), 3 + 6 + 4, "documents, revisions, files");

    let fresh = spawn_app().await;
    let html = upload(&fresh, &first).await;
    assert!(html.contains("Imported 3 documents"), "{html}");
    assert!(
        !html.contains("Ignored"),
        "every file is a document's: {html}"
    );
    let second = export(&fresh).await;
    assert_eq!(zip_files(&second), files, "same files, same bytes");
    assert!(first == second, "the zips are byte-identical");

    let (_, page) = fresh.get_text(&format!("/d/{a}")).await;
    assert!(
        page.contains(&format!("<img src=\"/d/{a}/files/photo.png\"")),
        "{page}"
    );
    for (id, name, bytes) in [
        (&a, "photo.png", PNG),
        (&a, "report.pdf", b"%PDF-1.7 numbers".as_slice()),
        (&a, "notes.txt", b"plain words\n".as_slice()),
        (&c, "photo.png", other_png.as_slice()),
    ] {
        let (status, got) = bytes_of(&fresh, &format!("/d/{id}/files/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert_eq!(got, bytes, "{name}");
    }
    let (_, list) = fresh.get_text("/").await;
    assert!(!list.contains(">notes<"), "an attached text is no document");
}

#[tokio::test]
async fn a_vault_of_hundreds_of_notes_some_with_images_comes_in_whole() {
    // More notes than one step of the import's writer stores (128), an image
    // in every 150th: a note that shows files ends its step, so full steps,
    // steps cut short by an image and a last short step all meet here.
    let app = spawn_app().await;
    let notes: Vec<(String, Vec<u8>)> = (0..300)
        .map(|i| {
            let image = match i % 150 {
                0 => format!("\n\n![](pics/p{i}.png)\n"),
                _ => String::new(),
            };
            (
                format!("n{i:03}.md"),
                format!("# Note {i}\n\nThe word of note {i} is w{i}z.{image}").into_bytes(),
            )
        })
        .collect();
    let pics: Vec<(String, Vec<u8>)> = (0..300)
        .step_by(150)
        .map(|i| {
            (
                format!("pics/p{i}.png"),
                [PNG, format!("{i}").as_bytes()].concat(),
            )
        })
        .collect();
    let files: Vec<(&str, &[u8])> = notes
        .iter()
        .chain(&pics)
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let html = upload(&app, &make_zip(&files)).await;
    assert!(html.contains("Imported 300 documents"), "{html}");
    assert!(
        html.contains("Attached 2 files to the documents that show them."),
        "{html}"
    );

    // Every note is there once, with its own text and, where it shows one,
    // its own image.
    let out = zip_files(&export(&app).await);
    for (i, (name, text)) in notes.iter().enumerate() {
        let key = format!("documents/{name}");
        let exported = out
            .get(&key)
            .unwrap_or_else(|| panic!("{key} in {:?}", out.keys()));
        let exported = String::from_utf8_lossy(exported);
        let text = String::from_utf8_lossy(text);
        assert!(exported.ends_with(text.as_ref()), "note {i}: {exported}");
    }
    let exported_notes = out.keys().filter(|k| k.starts_with("documents/")).count();
    assert_eq!(exported_notes, 300, "{:?}", out.keys());
    for (name, bytes) in &pics {
        let key = name.replace("pics/", "attachments/");
        assert_eq!(out.get(&key), Some(bytes), "{key} in {:?}", out.keys());
    }
}
