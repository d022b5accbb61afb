//! A vault of notes as teams bring them, zipped in its folder, with each
//! construct quire renders and malformed ones beside them (an unbalanced `$`,
//! a broken diagram, `[[#]]`, an alias naming another document's title,
//! hostile HTML in a callout's title and a footnote's label): it imports,
//! every page renders what it should, and no page carries a script, an event
//! handler or a style attribute.

use reqwest::StatusCode;

use crate::helpers::{TestApp, spawn_app};
use crate::transfer::make_zip;
use crate::transfer_upload::upload;

const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

fn vault() -> Vec<u8> {
    make_zip(&[
        (
            "Team vault/Math.md",
            b"Inline $x^2$ and $$\\frac{a}{b}$$.\n\nUnbalanced $x + y and a price of \\$5.\n\nBroken $\\frac{1}$.\n",
        ),
        (
            "Team vault/Diagrams.md",
            b"```mermaid\nflowchart LR\n  A --> B\n```\n\n```mermaid\nnot a [[ diagram <script>alert(1)</script>\n```\n",
        ),
        (
            "Team vault/Callouts.md",
            b"> [!WARNING] Mind <img src=x onerror=alert(1)> this\n> Body.\n\n> [!info]- Folded\n> Inside.\n\n\
              Text ==marked== and a note[^a<b>].\n\n[^a<b>]: Note <script>alert(2)</script>\n\n\
              Term\n: meaning\n\nhttps://example.org and www.example.com\n",
        ),
        (
            "Team vault/Projects/Website redesign.md",
            b"---\naliases: [Redesign, Callouts]\n---\n# Website redesign\n\n## Mockup\n\n\
              See [[#Mockup]] and [[#]]. #design work, issue #42.\n",
        ),
        (
            "Team vault/Index.md",
            b"[[Website redesign#Mockup]], [[Projects/Website redesign|by path]], [[Redesign]], \
              [[Callouts]] and [[Math]].\n\n![[pic.png]]\n",
        ),
        ("Team vault/attachments/pic.png", PNG),
    ])
}

/// Each imported document's id, by title, from the list.
async fn ids(app: &TestApp) -> std::collections::HashMap<String, String> {
    let (_, list) = app.get_text("/").await;
    let mut out = std::collections::HashMap::new();
    for part in list.split("<a href=\"/d/").skip(1) {
        let id = &part[..26];
        if let Some(title) = part.split_once('>').and_then(|(_, t)| t.split('<').next()) {
            out.insert(title.to_owned(), id.to_owned());
        }
    }
    out
}

/// The document's own part of its page.
fn prose(page: &str) -> &str {
    let start = page.find("class=\"prose\"").expect("a document page");
    let rest = &page[start..];
    rest.split("<section class=\"talk\"").next().unwrap_or(rest)
}

#[tokio::test]
async fn a_vault_with_every_construct_imports_renders_and_stays_inert() {
    let app = spawn_app().await;
    let (status, html) = upload(&app.client, &app.address, Some(&app.csrf), &vault()).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Imported 5 documents"), "{html}");
    assert!(html.contains("Attached 1 file"), "{html}");
    let ids = ids(&app).await;
    let mut pages = std::collections::HashMap::new();
    for title in ["Math", "Diagrams", "Callouts", "Website redesign", "Index"] {
        let id = ids
            .get(title)
            .unwrap_or_else(|| panic!("{title} in {ids:?}"));
        let (status, page) = app.get_text(&format!("/d/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{title}");
        let body = prose(&page).to_lowercase();
        for bad in ["<script", "onerror", "style=", "javascript:", "<iframe"] {
            assert!(!body.contains(bad), "{bad} in {title}: {body}");
        }
        pages.insert(title, page);
    }

    let math = prose(&pages["Math"]);
    assert!(math.contains("<math") && math.contains("<mfrac>"), "{math}");
    assert!(
        math.contains("$x + y"),
        "an unbalanced $ stays text: {math}"
    );
    assert!(
        math.contains("math-error"),
        "a broken formula is marked: {math}"
    );

    let diagrams = prose(&pages["Diagrams"]);
    assert_eq!(diagrams.matches("class=\"language-mermaid\"").count(), 2);
    assert!(diagrams.contains("&lt;script&gt;"), "{diagrams}");

    let callouts = prose(&pages["Callouts"]);
    assert!(callouts.contains("callout-warning") && callouts.contains("<details"));
    assert!(callouts.contains("<mark>marked</mark>") && callouts.contains("<dl>"));
    assert!(
        callouts.contains("href=\"https://example.org\""),
        "{callouts}"
    );
    assert!(
        callouts.contains("href=\"#h-fn-1\"") && callouts.contains("id=\"h-fn-1\""),
        "a footnote links to its note, whatever its label: {callouts}"
    );

    let site = &ids["Website redesign"];
    let page = &pages["Website redesign"];
    assert!(page.contains("href=\"/?tag=design\""), "an inline tag");
    assert!(!page.contains("href=\"/?tag=42\""), "a number is no tag");
    assert!(
        !prose(page).contains("aliases"),
        "front matter is not shown"
    );
    assert!(prose(page).contains("href=\"#h-mockup\""), "[[#Mockup]]");

    let index = prose(&pages["Index"]);
    assert!(
        index.contains(&format!("href=\"/d/{site}#h-mockup\"")),
        "{index}"
    );
    assert!(
        index.contains(&format!("href=\"/d/{site}\">by path</a>")),
        "{index}"
    );
    assert!(
        index.contains(&format!("href=\"/d/{site}\">Redesign</a>")),
        "{index}"
    );
    let callouts_id = &ids["Callouts"];
    assert!(
        index.contains(&format!("href=\"/d/{callouts_id}\">Callouts</a>")),
        "a title before an alias: {index}"
    );
    assert!(
        index.contains("/files/pic.png"),
        "the image came along: {index}"
    );
}
