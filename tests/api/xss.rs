//! Markdown with hostile HTML renders inert, in the document page and in search.

use crate::helpers::spawn_app;

const PAYLOADS: &[&str] = &[
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<a href=\"javascript&colon;alert(1)\">x</a>",
    "<div style=\"background:url(javascript:alert(1))\">x</div>",
    "<object data=\"x.swf\"></object>",
    "<form action=\"https://evil.example\"><button>go</button></form>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<details open ontoggle=alert(1)>",
    "![x](x\" onerror=\"alert(1))",
    "<base href=\"https://evil.example/\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
];

#[tokio::test]
async fn hostile_markdown_renders_inert() {
    let app = spawn_app().await;
    let body = PAYLOADS.join("\n\n");
    let id = app
        .create_document("<script>alert('title')</script>", &body)
        .await;

    let (_, html) = app.get_text(&format!("/d/{id}")).await;
    let article = &html[html.find("<article").unwrap()..html.find("</article>").unwrap()];
    let prose = &article[article.find(r#"class="prose""#).unwrap()..];
    // The discussion under it is quire's own forms, not the document's.
    let prose = prose.split(r#"<section class="talk""#).next().unwrap();
    let lower = prose.to_lowercase();
    for bad in [
        "<script",
        "onerror=",
        "onload=",
        "ontoggle=",
        "javascript:",
        "<iframe",
        "<object",
        "<form",
        "<svg",
        "<base",
        "<meta",
        "data:text/html",
        "style=",
    ] {
        assert!(!lower.contains(bad), "{bad} survived:\n{article}");
    }
    assert!(
        article.contains("&#60;script&#62;alert"),
        "the title is escaped"
    );

    let (status, found) = app.get_text("/search?q=alert").await;
    assert_eq!(status, reqwest::StatusCode::OK);
    let results = &found[found.find("id=\"results\"").unwrap()..];
    assert!(
        results.contains(&format!("href=\"/d/{id}\"")),
        "the hostile document is a hit, so its title and snippet are on the page:\n{results}"
    );
    assert!(
        results.contains("&lt;script&gt;<mark>alert</mark>"),
        "the snippet holds the payload, escaped:\n{results}"
    );
    assert!(!results.to_lowercase().contains("<script"), "{results}");
}
