//! A strict reader for `application/x-www-form-urlencoded` bodies: it stops reading
//! at the size limit, and refuses text that is not UTF-8 instead of quietly
//! replacing bytes the way lenient decoders do.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::StreamExt;

use crate::web::error::AppError;

/// The largest form body read at all; set from the document cap at start-up.
#[derive(Clone, Copy, Debug)]
pub struct FormLimit(pub usize);

impl FormLimit {
    /// Percent-encoding can triple a body (every non-ASCII byte becomes `%XX`), so
    /// the limit is the worst case for a body exactly at the cap, plus room for the
    /// title and the other fields.
    pub fn for_cap(cap: usize) -> Self {
        Self(cap * 3 + 16 * 1024)
    }
}

#[derive(Debug, Default)]
pub struct FormData(HashMap<String, String>);

impl FormData {
    pub fn parse(body: &[u8]) -> Result<Self, AppError> {
        let mut fields = HashMap::new();
        for pair in body.split(|&b| b == b'&').filter(|p| !p.is_empty()) {
            let mut kv = pair.splitn(2, |&b| b == b'=');
            let key = decode(kv.next().unwrap_or_default())?;
            let value = decode(kv.next().unwrap_or_default())?;
            fields.entry(key).or_insert(value);
        }
        Ok(Self(fields))
    }

    /// Fields read some other way (a multipart form's).
    pub fn from_fields(fields: HashMap<String, String>) -> Self {
        Self(fields)
    }

    /// Every field, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    pub fn require(&self, name: &str) -> Result<&str, AppError> {
        self.get(name).ok_or_else(|| {
            AppError::BadRequest(format!("The form is missing its \"{name}\" field."))
        })
    }

    pub fn version(&self) -> Result<i64, AppError> {
        self.require("version")?
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|v| *v >= 1)
            .ok_or_else(|| {
                AppError::BadRequest("The form's \"version\" field is not a version number.".into())
            })
    }
}

fn decode(raw: &[u8]) -> Result<String, AppError> {
    let plus_as_space: Vec<u8> = raw
        .iter()
        .map(|&b| if b == b'+' { b' ' } else { b })
        .collect();
    let bytes: Vec<u8> = percent_encoding::percent_decode(&plus_as_space).collect();
    let text = String::from_utf8(bytes).map_err(|_| {
        AppError::BadRequest(
            "The form contains text that is not valid UTF-8. quire stores text as UTF-8; \
             re-save the file as UTF-8 and paste it again."
                .into(),
        )
    })?;
    Ok(crate::documents::without_nul(&text).into_owned())
}

impl FromRequest for FormData {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let limit = req
            .app_data::<web::Data<FormLimit>>()
            .map_or(FormLimit::for_cap(262_144).0, |l| l.0);
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if !content_type.is_empty()
                && !content_type.starts_with("application/x-www-form-urlencoded")
            {
                return Err(AppError::BadRequest(
                    "quire expects an ordinary form post (application/x-www-form-urlencoded)."
                        .into(),
                ));
            }
            if declared.is_some_and(|n| n > limit) {
                return Err(AppError::UploadTooLarge { limit });
            }
            let mut body = web::BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk =
                    chunk.map_err(|e| AppError::BadRequest(format!("Upload failed: {e}")))?;
                if body.len() + chunk.len() > limit {
                    return Err(AppError::UploadTooLarge { limit });
                }
                body.extend_from_slice(&chunk);
            }
            FormData::parse(&body)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_fields_plus_and_percent() {
        let f = FormData::parse(b"title=Hello+world&body=a%26b%3Dc%0A%E6%97%A5&version=3").unwrap();
        assert_eq!(f.get("title"), Some("Hello world"));
        assert_eq!(f.get("body"), Some("a&b=c\n日"));
        assert_eq!(f.version().unwrap(), 3);
    }

    #[test]
    fn invalid_utf8_is_refused_not_replaced() {
        assert!(matches!(
            FormData::parse(b"title=x&body=%FF%FE"),
            Err(AppError::BadRequest(_))
        ));
    }

    #[test]
    fn missing_and_malformed_versions_are_refused() {
        let f = FormData::parse(b"title=x&version=abc").unwrap();
        assert!(f.version().is_err());
        assert!(f.require("body").is_err());
        assert!(FormData::parse(b"version=0").unwrap().version().is_err());
    }
}
