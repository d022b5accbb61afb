//! The CSRF field of a file upload. A `multipart/form-data` body may be far larger
//! than any form quire reads whole, so only its first field is read (forms put the
//! hidden `csrf` field first) and the bytes are handed back, still streaming, to
//! the handler.

use actix_web::HttpMessage;
use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use std::pin::Pin;

use crate::web::error::AppError;

/// How much of a body is read looking for its first field.
const PEEK_LIMIT: usize = 16 * 1024;

pub fn is_multipart(req: &ServiceRequest) -> bool {
    content_type(req).starts_with("multipart/form-data")
}

fn content_type(req: &ServiceRequest) -> String {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

fn boundary(req: &ServiceRequest) -> Option<String> {
    let raw = req.headers().get(header::CONTENT_TYPE)?.to_str().ok()?;
    raw.split(';').find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.eq_ignore_ascii_case("boundary")
            .then(|| v.trim_matches('"').to_owned())
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// `Some(value)` once the first part is complete and is named `want`; `Some(None)`
/// when it is another field or the body is malformed; `None` while more is needed.
fn first_field(buf: &[u8], boundary: &str, want: &str) -> Option<Option<String>> {
    let delimiter = format!("--{boundary}");
    let start = match find(buf, delimiter.as_bytes()) {
        Some(at) => at + delimiter.len(),
        None if buf.len() < delimiter.len() + 2 => return None,
        None => return Some(None),
    };
    let rest = &buf[start..];
    let rest = rest.strip_prefix(b"\r\n".as_slice())?;
    let head_end = find(rest, b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&rest[..head_end]).to_ascii_lowercase();
    let named = head
        .lines()
        .any(|l| l.starts_with("content-disposition:") && l.contains(&format!("name=\"{want}\"")));
    if !named {
        return Some(None);
    }
    let value = &rest[head_end + 4..];
    let end = find(value, format!("\r\n{delimiter}").as_bytes())?;
    Some(String::from_utf8(value[..end].to_vec()).ok())
}

/// The value of the body's first field if it is called `want`. The body is put
/// back whole either way.
pub async fn leading_field(
    req: &mut ServiceRequest,
    want: &str,
) -> Result<Option<String>, AppError> {
    let Some(boundary) = boundary(req) else {
        return Ok(None);
    };
    let mut payload = req.take_payload();
    let mut buf = BytesMut::new();
    let found = loop {
        if let Some(found) = first_field(&buf, &boundary, want) {
            break found;
        }
        if buf.len() > PEEK_LIMIT {
            break None;
        }
        match payload.next().await {
            Some(Ok(chunk)) => buf.extend_from_slice(&chunk),
            Some(Err(e)) => return Err(AppError::BadRequest(format!("Upload failed: {e}"))),
            None => break None,
        }
    };
    let read: Bytes = buf.freeze();
    let stream = futures_util::stream::once(async move { Ok(read) }).chain(payload);
    let boxed: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(stream);
    req.set_payload(Payload::from(boxed));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc123\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.zip\"\r\n\r\nPK...";

    #[test]
    fn reads_the_first_field_once_it_is_complete() {
        assert_eq!(
            first_field(BODY, "XyZ", "csrf"),
            Some(Some("abc123".into()))
        );
        assert_eq!(first_field(&BODY[..40], "XyZ", "csrf"), None);
        assert_eq!(first_field(&BODY[..62], "XyZ", "csrf"), None);
    }

    #[test]
    fn another_first_field_or_garbage_gives_no_token() {
        assert_eq!(first_field(BODY, "XyZ", "file"), Some(None));
        assert_eq!(
            first_field(b"garbage garbage garbage", "XyZ", "csrf"),
            Some(None)
        );
    }
}
