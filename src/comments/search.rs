//! Comments found by search: shown beside the documents a search finds,
//! marked as comments, only on documents the reader may read.

use crate::db::Db;
use crate::documents::InSpace;
use crate::documents::access::Actor;

/// Comments a search shows at most.
const MOST: i64 = 10;

/// Characters of a comment a hit shows around its first match.
const AROUND: usize = 80;

/// A comment that holds the words searched for.
#[derive(Debug, Clone)]
pub struct CommentHit {
    pub id: i64,
    pub doc_id: String,
    pub title: String,
    pub author: String,
    /// Plain text around the first match.
    pub excerpt: String,
    pub created_at: i64,
}

/// The plain words of a query, lower case: operators and quotes are not
/// words; at most eight.
fn words(q: &str) -> Vec<String> {
    q.split(|c: char| c.is_whitespace() || c == '"')
        .map(|w| w.trim_start_matches(['-', '+']).to_lowercase())
        .filter(|w| !w.is_empty() && w != "or" && w != "and" && w != "not")
        .take(8)
        .collect()
}

/// Text around the first place `word` occurs in `body` (case aside).
fn excerpt(body: &str, word: &str) -> String {
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = flat.chars().collect();
    let lower: Vec<char> = flat.to_lowercase().chars().collect();
    let w: Vec<char> = word.chars().collect();
    let at = if lower.len() == chars.len() && !w.is_empty() {
        lower
            .windows(w.len())
            .position(|x| x == w.as_slice())
            .unwrap_or(0)
    } else {
        0
    };
    let start = at.saturating_sub(AROUND / 2);
    let end = (start + AROUND * 2).min(chars.len());
    let mut out: String = chars[start..end].iter().collect();
    if start > 0 {
        out.insert(0, '…');
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

/// The newest comments the reader may read that hold every word of `q`.
pub async fn search(
    db: &Db,
    actor: Actor<'_>,
    q: &str,
    space: Option<InSpace>,
) -> Result<Vec<CommentHit>, crate::db::Error> {
    let words = words(q);
    let rows = crate::db::comments::search(
        &db.read,
        actor.user_id,
        &words,
        space.map(InSpace::bound),
        MOST,
    )
    .await?;
    let first = words.first().map(String::as_str).unwrap_or_default();
    Ok(rows
        .into_iter()
        .map(|r| CommentHit {
            excerpt: excerpt(&r.body, first),
            id: r.id,
            doc_id: r.doc_id,
            title: r.title,
            author: r.author,
            created_at: r.created_at,
        })
        .collect())
}

/// Whether there is any comment to search in: when there is none, a search
/// need not look (kept by the caller until something changes).
pub async fn any(db: &Db) -> Result<bool, crate::db::Error> {
    crate::db::comments::any(&db.read).await
}

#[cfg(test)]
mod tests {
    use super::{excerpt, words};

    #[test]
    fn operators_and_quotes_are_not_words() {
        assert_eq!(
            words(r#"Tomato OR "basil pesto" -weeds"#),
            ["tomato", "basil", "pesto", "weeds"]
        );
    }

    #[test]
    fn the_excerpt_is_around_the_first_match() {
        let body = format!("{} the tomato is ripe", "word ".repeat(60));
        let e = excerpt(&body, "tomato");
        assert!(
            e.starts_with('…') && e.contains("the tomato is ripe"),
            "{e}"
        );
    }
}
