//! The text inside attached files is searched with its document: a PDF page by
//! page, DOCX, ODT, HTML (not its scripts) and plain text, read after the
//! upload by `quire extract-text` in a child process. Exactly who may read the
//! document finds its files' words; hostile files (a PDF that inflates past
//! the reader's memory, nesting deep enough to overflow its stack, a zip bomb
//! inside a DOCX) end as failed or cut short, and the reader goes on.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::attachments::attach;
use crate::helpers::pages::{hit_titles, search_page as search};
use crate::helpers::{Person, TestApp, spawn_app};

/// A PDF of one page per text, in Helvetica, with a correct cross-reference
/// table; `extra` is one more object (number 3 + 2 × pages) put in as it is.
pub fn pdf(pages: &[&str], extra: Option<&[u8]>) -> Vec<u8> {
    let n = pages.len();
    let font = 3 + 2 * n;
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {n} >>",
            (0..n)
                .map(|i| format!("{} 0 R", 3 + 2 * i))
                .collect::<Vec<_>>()
                .join(" ")
        )
        .into_bytes(),
    ];
    for (i, text) in pages.iter().enumerate() {
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                 /Resources << /Font << /F1 {font} 0 R >> >> >>",
                4 + 2 * i
            )
            .into_bytes(),
        );
        let content = format!("BT /F1 18 Tf 72 700 Td ({text}) Tj ET");
        objects.push(
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )
            .into_bytes(),
        );
    }
    objects.push(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    );
    if let Some(extra) = extra {
        objects.push(extra.to_vec());
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A zip of `(path, bytes)` entries, deflated.
fn zipped(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (path, bytes) in entries {
        zip.start_file(*path, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn docx(text: &str) -> Vec<u8> {
    let xml = format!(
        "<?xml version=\"1.0\"?><w:document xmlns:w=\"w\"><w:body><w:p><w:r><w:t>{text}</w:t>\
         </w:r></w:p><w:p><w:r><w:t>second paragraph</w:t></w:r></w:p></w:body></w:document>"
    );
    zipped(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", xml.as_bytes()),
    ])
}

fn odt(text: &str) -> Vec<u8> {
    let xml = format!(
        "<office:document-content><office:body><office:text><text:p>{text}</text:p></office:text></office:body></office:document-content>"
    );
    zipped(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", xml.as_bytes()),
    ])
}

/// How reading each of the document's files went, once none waits.
async fn read_states(app: &TestApp, doc: &str) -> Vec<(String, String, String)> {
    let started = Instant::now();
    loop {
        let states: Vec<(String, String, String)> = quire::db::query_as(
            "SELECT f.name, coalesce(t.state, 'waiting'), coalesce(t.note, '')
             FROM document_files AS f JOIN documents AS d ON d.seq = f.doc_seq
             LEFT JOIN attachment_texts AS t ON t.hash = f.hash
             WHERE d.id = $1 ORDER BY f.name",
        )
        .bind(doc)
        .fetch_all(&app.db.read)
        .await
        .unwrap();
        if states
            .iter()
            .all(|(_, s, _)| s != "waiting" && s != "working")
        {
            return states;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "still reading: {states:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn words_inside_attached_files_find_their_document_for_those_who_may_read_it() {
    let app = spawn_app().await;
    let report = app.create_document("Quarterly", "See the files.").await;
    let (c, t) = (&app.client, &app.csrf);
    let files: [(&str, Vec<u8>); 5] = [
        (
            "report.pdf",
            pdf(&["Revenue grew", "Zirconium supply"], None),
        ),
        ("minutes.docx", docx("Molybdenum &amp; more")),
        ("plan.odt", odt("Vanadium plan")),
        (
            "page.html",
            b"<script>tungsten()</script><p>Cobalt prices</p>".to_vec(),
        ),
        ("notes.txt", b"Tellurium notes".to_vec()),
    ];
    for (name, bytes) in &files {
        let (status, _) = attach(c, &app, t, &report, name, bytes).await;
        assert_eq!(status, 201, "{name}");
    }
    let states = read_states(&app, &report).await;
    assert!(states.iter().all(|(_, s, _)| s == "done"), "{states:?}");

    let page = search(c, &app, "zirconium").await;
    assert_eq!(hit_titles(&page), ["Quarterly"]);
    assert!(page.contains("in attachment"), "{page}");
    assert!(page.contains("report.pdf</a>, page 2"), "{page}");
    assert!(page.contains("/files/report.pdf#page=2"), "{page}");
    for word in ["molybdenum", "vanadium", "cobalt", "tellurium"] {
        assert_eq!(
            hit_titles(&search(c, &app, word).await),
            ["Quarterly"],
            "{word}"
        );
    }
    assert!(hit_titles(&search(c, &app, "tungsten").await).is_empty());

    // Someone who may not read the document finds nothing of its files.
    let bob = Person::new(&app, "bob").await;
    for word in ["zirconium", "molybdenum", "cobalt"] {
        let page = search(&bob.client, &app, word).await;
        assert!(hit_titles(&page).is_empty(), "{word}: {page}");
        assert!(!page.contains("report.pdf"));
    }
    // A trashed document's files are not found either.
    let res = app.post_form(&format!("/d/{report}/delete"), &[]).await;
    assert_eq!(res.status(), 303);
    assert!(hit_titles(&search(c, &app, "zirconium").await).is_empty());
}

#[tokio::test]
async fn hostile_files_fail_alone_and_the_reader_goes_on() {
    let app = spawn_app().await;
    let doc = app.create_document("Hostile", "files").await;
    let (c, t) = (&app.client, &app.csrf);
    // A stream that inflates to more than the reader's memory.
    let mut deflate = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1200 {
        deflate.write_all(&zeros).unwrap();
    }
    let inflating = deflate.finish().unwrap();
    let mut content = format!(
        "<< /Length {} /Filter /FlateDecode >>\nstream\n",
        inflating.len()
    )
    .into_bytes();
    content.extend_from_slice(&inflating);
    content.extend_from_slice(b"\nendstream");
    let mut bomb = pdf(&["placeholder"], None);
    // The page's contents become the bomb.
    let at = bomb.windows(8).position(|w| w == b"4 0 obj\n").unwrap();
    let end = at + bomb[at..].windows(6).position(|w| w == b"endobj").unwrap();
    bomb.splice(at + 8..end, content);
    let nested = pdf(
        &["deep"],
        Some(format!("{}{}", "[".repeat(200_000), "]".repeat(200_000)).as_bytes()),
    );
    // A DOCX whose text inflates to 400 MB.
    let huge = " ".repeat(400 << 20);
    let docx_bomb = zipped(&[("word/document.xml", huge.as_bytes())]);
    drop(huge);
    for (name, bytes) in [
        ("bomb.pdf", &bomb),
        ("nested.pdf", &nested),
        ("bomb.docx", &docx_bomb),
    ] {
        assert!(bytes.len() < 10 << 20, "{name} is {} bytes", bytes.len());
        let (status, _) = attach(c, &app, t, &doc, name, bytes).await;
        assert_eq!(status, 201, "{name}");
    }
    let states = read_states(&app, &doc).await;
    let state = |name: &str| states.iter().find(|s| s.0 == name).unwrap().clone();
    assert_eq!(state("bomb.pdf").1, "failed", "{states:?}");
    assert!(!state("bomb.pdf").2.is_empty());
    assert_eq!(state("nested.pdf").1, "failed", "{states:?}");
    // Read only as far as the cap: done, and nothing to find.
    assert_eq!(state("bomb.docx").1, "done", "{states:?}");

    // The server answers, and the next file is read.
    let (status, _) = attach(c, &app, t, &doc, "after.txt", b"Scandium after all").await;
    assert_eq!(status, 201);
    read_states(&app, &doc).await;
    assert_eq!(hit_titles(&search(c, &app, "scandium").await), ["Hostile"]);
}
