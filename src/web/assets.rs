//! Static files, embedded in the binary and served at content-hashed URLs so a
//! browser may cache them for a year and still never run a stale script.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use sha2::{Digest, Sha256};

pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
    pub hash: String,
}

impl Asset {
    pub fn url(&self) -> String {
        format!("/static/{}/{}", self.hash, self.name)
    }
}

pub fn all() -> &'static [Asset] {
    static ASSETS: OnceLock<Vec<Asset>> = OnceLock::new();
    ASSETS.get_or_init(|| {
        // One stylesheet, written in three files.
        const STYLE: &str = concat!(
            include_str!("../../static/style.css"),
            include_str!("../../static/talk.css"),
            include_str!("../../static/writing.css")
        );
        let files: [(&str, &str, &[u8]); 8] = [
            ("style.css", "text/css; charset=utf-8", STYLE.as_bytes()),
            (
                "quire.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/quire.js"),
            ),
            (
                "writing.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/writing.js"),
            ),
            (
                "search.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/search.js"),
            ),
            (
                "attach.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/attach.js"),
            ),
            (
                "talk.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/talk.js"),
            ),
            (
                "htmx.min.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/vendor/htmx.min.js"),
            ),
            (
                "favicon.svg",
                "image/svg+xml",
                include_bytes!("../../static/favicon.svg"),
            ),
        ];
        files
            .into_iter()
            .map(|(name, content_type, bytes)| Asset {
                name,
                content_type,
                bytes,
                hash: hex_prefix(&Sha256::digest(bytes)),
            })
            .collect()
    })
}

pub fn url(name: &str) -> String {
    all()
        .iter()
        .find(|a| a.name == name)
        .map(Asset::url)
        .unwrap_or_default()
}

fn hex_prefix(digest: &[u8]) -> String {
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// `GET /static/{hash}/{name}`: only names in the table exist, so no path can
/// escape it. An old hash still gets the current file, but not the long cache.
/// `/favicon.ico`, which browsers and feed readers ask for whatever a page links:
/// the same icon, so no page load logs a 404.
pub async fn favicon() -> HttpResponse {
    let icon = all().iter().find(|a| a.name == "favicon.svg");
    match icon {
        Some(asset) => HttpResponse::Ok()
            .content_type(asset.content_type)
            .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
            .body(asset.bytes),
        None => HttpResponse::NotFound().finish(),
    }
}

pub async fn serve(path: web::Path<(String, String)>) -> HttpResponse {
    let (hash, name) = path.into_inner();
    let Some(asset) = all().iter().find(|a| a.name == name) else {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("no such file");
    };
    let cache = if asset.hash == hash {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    HttpResponse::Ok()
        .content_type(asset.content_type)
        .insert_header((header::CACHE_CONTROL, cache))
        .body(asset.bytes)
}
