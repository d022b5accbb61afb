//! An import's memory does not grow with the files one note shows: a small
//! zip whose one note shows 40 images of 9 MiB each (zeros, so they pack
//! small) is imported within a bound far below the 360 MiB they hold.

use std::io::Write;

use super::import_safety::import_measured;

const IMAGES: usize = 40;
const IMAGE_BYTES: usize = 9 << 20;

fn zip_of_one_note_with_large_images() -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    zip.start_file("note.md", opts).unwrap();
    writeln!(zip, "# Pictures\n").unwrap();
    for i in 0..IMAGES {
        writeln!(zip, "![](img-{i}.png)").unwrap();
    }
    let zeros = vec![0u8; 1 << 20];
    for i in 0..IMAGES {
        zip.start_file(format!("img-{i}.png"), opts).unwrap();
        let head = [
            b"\x89PNG\r\n\x1a\n".as_slice(),
            format!("picture {i}").as_bytes(),
        ]
        .concat();
        zip.write_all(&head).unwrap();
        let mut left = IMAGE_BYTES - head.len();
        while left > 0 {
            let n = left.min(zeros.len());
            zip.write_all(&zeros[..n]).unwrap();
            left -= n;
        }
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn a_note_showing_forty_large_images_imports_them_all_within_a_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let db_url = format!("sqlite://{}", dir.path().join("quire.db").display());
    let file = dir.path().join("images.zip");
    std::fs::write(&file, zip_of_one_note_with_large_images()).unwrap();
    assert!(std::fs::metadata(&file).unwrap().len() < 1 << 20);

    let (status, text, peak) = import_measured(&file, &db_url);
    assert!(status.success(), "{text}");
    assert!(text.contains("imported 1 documents"), "{text}");
    assert!(!text.contains("note:"), "every image was kept: {text}");
    eprintln!(
        "quire import of one note showing {IMAGES} × 9 MiB images: peak {} MiB",
        peak >> 20
    );
    assert!(
        peak <= 160 << 20,
        "quire import peaked at {} MiB for one note showing {IMAGES} images of 9 MiB",
        peak >> 20
    );

    let mut config = quire::config::Config::from_env();
    config.database_url = db_url;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (named, bytes): (i64, i64) = rt.block_on(async {
        let db = quire::db::Db::open(&config).await.unwrap();
        let named = quire::db::query_scalar("SELECT count(*) FROM document_files")
            .fetch_one(&db.read)
            .await
            .unwrap();
        let bytes = quire::db::query_scalar("SELECT sum(size) FROM attachments")
            .fetch_one(&db.read)
            .await
            .unwrap();
        db.close().await;
        (named, bytes)
    });
    assert_eq!(named, IMAGES as i64);
    assert_eq!(bytes, (IMAGES * IMAGE_BYTES) as i64);
}
