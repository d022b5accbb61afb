//! The snippets of a page of hits: most from the start of each text, read
//! with the hit; the others from their texts read again, several at once.

use super::{around, around_start};
use crate::db::search::SCAN_CHARS;

/// At most this many hits' texts are read again in one query, each up to
/// `SCAN_CHARS` characters: a few MB at most in memory, not a page's 50.
const TEXTS_AT_ONCE: usize = 10;

/// Each hit's snippet, given as its id and the start of its text as the search
/// read it (`around_start`); the hits whose match lies further in are read
/// again, `TEXTS_AT_ONCE` to a query, up to `SCAN_CHARS`. A text gone
/// meanwhile, or a failed read (logged), shows the start that was read.
pub async fn fill(
    read: &impl crate::db::Conn,
    hits: &mut [(&str, &mut String)],
    needles: &[String],
    (open, close): (&str, &str),
) {
    let mut later = Vec::new();
    for (i, (_, snippet)) in hits.iter_mut().enumerate() {
        match around_start(snippet, needles, open, close) {
            Some(s) => **snippet = s,
            None => later.push(i),
        }
    }
    for some in later.chunks(TEXTS_AT_ONCE) {
        let ids: Vec<&str> = some.iter().map(|&i| hits[i].0).collect();
        let texts = match crate::db::search::texts_start(read, &ids, SCAN_CHARS as i32).await {
            Ok(texts) => texts,
            Err(e) => {
                tracing::warn!(error = %e, "could not read search hits' texts");
                Vec::new()
            }
        };
        for &i in some {
            let (id, snippet) = &mut hits[i];
            let text = texts.iter().find(|t| t.id == *id);
            let cut = around(
                text.map_or(snippet.as_str(), |t| t.text.as_str()),
                needles,
                open,
                close,
            );
            **snippet = cut;
        }
    }
}
