//! A large import shares the writer: it stores in short transactions, so a
//! user's save during it waits for one of them, not for the whole import.

use std::time::{Duration, Instant};

use reqwest::StatusCode;

use crate::helpers::spawn_app;

#[tokio::test]
async fn a_save_during_a_large_import_waits_for_one_short_transaction_not_the_import() {
    // 400 documents of 200 KB: seconds of storing and indexing in one go. Made
    // before the server starts: built after, it would leave the client's
    // connection idle for about the server's keep-alive, and the next request
    // could go out on a connection the server is closing.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..400 {
        use std::io::Write;
        zip.start_file(format!("doc{i}.md"), opts).unwrap();
        let words: String = (0..25_000).map(|w| format!("w{i}x{w} ")).collect();
        zip.write_all(&words.as_bytes()[..200_000]).unwrap();
    }
    let file = zip.finish().unwrap().into_inner();
    let app = spawn_app().await;
    let id = app.create_document("Mine", "first").await;
    let mut body = format!(
        "--XB\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{}\r\n--XB\r\n\
         Content-Disposition: form-data; name=\"file\"; filename=\"big.zip\"\r\n\
         Content-Type: application/zip\r\n\r\n",
        app.csrf
    )
    .into_bytes();
    body.extend_from_slice(&file);
    body.extend_from_slice(b"\r\n--XB--\r\n");
    let import = app
        .client
        .post(format!("{}/admin/import", app.address))
        .header("Content-Type", "multipart/form-data; boundary=XB")
        .body(body)
        .send();
    let import = tokio::spawn(import);
    let importing = Instant::now();

    let mut slowest = Duration::ZERO;
    let mut version = 1;
    while !import.is_finished() {
        let started = Instant::now();
        let res = app
            .save(&id, "Mine", &format!("version {version}"), version)
            .await;
        assert_eq!(
            res.status(),
            StatusCode::SEE_OTHER,
            "a save during the import"
        );
        slowest = slowest.max(started.elapsed());
        version += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let took = importing.elapsed();
    let res = import.await.unwrap().unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("Imported 400 documents"));
    // Measured against the import itself, so a slow machine does not matter:
    // before, one save waited for nearly all of it.
    assert!(
        slowest < took / 4,
        "the slowest save took {slowest:?} of the import's {took:?}"
    );
}
