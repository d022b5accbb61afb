//! Static files, embedded in the binary and served at content-hashed URLs so a
//! browser may cache them for a year and still never run a stale script.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use sha2::{Digest, Sha256};

pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
    pub hash: String,
    /// `bytes` are gzip-compressed (a large vendored script): sent as they are
    /// to a client that takes gzip, uncompressed to any other.
    pub gzipped: bool,
}

impl Asset {
    pub fn url(&self) -> String {
        format!("/static/{}/{}", self.hash, self.name)
    }
}

pub fn all() -> &'static [Asset] {
    static ASSETS: OnceLock<Vec<Asset>> = OnceLock::new();
    ASSETS.get_or_init(|| {
        // One stylesheet, written in four files.
        const STYLE: &str = concat!(
            include_str!("../../static/style.css"),
            include_str!("../../static/talk.css"),
            include_str!("../../static/writing.css"),
            include_str!("../../static/search.css")
        );
        let files: [(&str, &str, &[u8]); 11] = [
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
            (
                "diagrams.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/diagrams.js"),
            ),
            (
                "diagram-frame.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/diagram-frame.js"),
            ),
            (
                // Fetched and checked by scripts/fetch-mermaid.sh.
                "mermaid.min.js",
                "text/javascript; charset=utf-8",
                include_bytes!("../../static/vendor/mermaid.min.js.gz"),
            ),
        ];
        files
            .into_iter()
            .map(|(name, content_type, bytes)| Asset {
                name,
                content_type,
                bytes,
                hash: hex_prefix(&Sha256::digest(bytes)),
                gzipped: name == "mermaid.min.js",
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
    crate::transfer::hex(&digest[..6])
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

pub async fn serve(req: HttpRequest, path: web::Path<(String, String)>) -> HttpResponse {
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
    let mut res = HttpResponse::Ok();
    res.content_type(asset.content_type)
        .insert_header((header::CACHE_CONTROL, cache));
    if !asset.gzipped {
        return res.body(asset.bytes);
    }
    res.insert_header((header::VARY, "Accept-Encoding"));
    if takes_gzip(&req) {
        return res
            .insert_header((header::CONTENT_ENCODING, "gzip"))
            .body(asset.bytes);
    }
    match gunzip(asset.bytes) {
        Ok(plain) => res.body(plain),
        Err(e) => {
            tracing::error!(error = %e, name = asset.name, "an embedded file does not uncompress");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// Whether the request says it takes gzip (every browser does).
fn takes_gzip(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let refused = parts.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// `bytes` uncompressed from gzip.
fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain)?;
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    /// The embedded Mermaid is the bundle scripts/fetch-mermaid.sh pins.
    #[test]
    fn the_embedded_mermaid_is_the_pinned_one() {
        let script = include_str!("../../scripts/fetch-mermaid.sh");
        let pinned = script
            .lines()
            .find_map(|l| l.strip_prefix("SHA256="))
            .expect("the script pins a hash");
        let asset = super::all()
            .iter()
            .find(|a| a.name == "mermaid.min.js")
            .expect("mermaid is embedded");
        let plain = super::gunzip(asset.bytes).expect("it uncompresses");
        let got: String = Sha256::digest(&plain)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, pinned);
    }
}
