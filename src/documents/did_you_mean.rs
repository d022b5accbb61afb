//! "Did you mean …" after a search that found little: each word the index does
//! not hold is replaced by the closest word it does (edit distance, a swap of
//! two neighbours counting once), read from the index's vocabulary among
//! words that start as it does. The vocabulary holds everyone's words, so a
//! word is offered only when a search under the reader's rights finds it
//! whole in a document they may read.

use super::Caller;
use super::search_terms::Query;
use crate::db::Db;
use crate::db::search::vocabulary;

/// Words of a bucket read at most (the words sharing a first letter or two).
const BUCKET_AT_MOST: i64 = 20_000;
/// Candidates checked against the reader's documents, closest first.
const CHECKED_AT_MOST: usize = 5;
/// Misspelt words of one search looked up: each reads up to two buckets.
const LOOKED_UP_AT_MOST: usize = 4;

/// The optimal string alignment distance of `a` and `b`, or `None` when it is
/// more than `most`.
pub fn distance(a: &[char], b: &[char], most: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > most {
        return None;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > most {
            return None;
        }
    }
    Some(d[a.len() * w + b.len()]).filter(|&v| v <= most)
}

/// How far a word of this many characters may be from what was meant.
fn allowed(chars: usize) -> usize {
    if chars <= 4 { 1 } else { 2 }
}

/// The words of `bucket` (each with how many documents hold it) within
/// reach of `word`, closest first, then the most used, then the nearest in
/// length, then in order.
fn closest(word: &str, bucket: Vec<(String, i64)>) -> Vec<String> {
    let a: Vec<char> = word.chars().collect();
    let most = allowed(a.len());
    let mut near: Vec<(usize, i64, usize, String)> = bucket
        .into_iter()
        .filter_map(|(w, used)| {
            let b: Vec<char> = w.chars().collect();
            let d = distance(&a, &b, most)?;
            (d > 0 && b.iter().all(|c| c.is_alphabetic()))
                .then(|| (d, -used, b.len().abs_diff(a.len()), w))
        })
        .collect();
    near.sort();
    near.into_iter().map(|(.., w)| w).collect()
}

/// The range of words starting with `start`.
fn range(start: &str) -> (String, String) {
    (start.to_string(), format!("{start}\u{10FFFF}"))
}

/// Whether the index holds `word` (or, for a `prefix`, a word starting so).
async fn indexed(db: &Db, word: &str, prefix: bool) -> bool {
    let end = if prefix {
        format!("{word}\u{10FFFF}")
    } else {
        // Only the word itself sorts below it (PostgreSQL's text holds no NUL).
        format!("{word}\u{1}")
    };
    vocabulary::words_between(db, (word, &end), 1)
        .await
        .map(|w| !w.is_empty())
        // Unknown: offer nothing rather than guess.
        .unwrap_or(true)
}

/// The word meant by `word`, which the index does not hold: the closest the
/// reader's documents hold, from the words sharing its first two letters,
/// else its first.
async fn meant(db: &Db, word: &str, actor: Caller<'_>) -> Option<String> {
    let first: String = word.chars().take(1).collect();
    let two: String = word.chars().take(2).collect();
    for start in [two, first] {
        let (from, to) = range(&start);
        let bucket = vocabulary::words_between(db, (&from, &to), BUCKET_AT_MOST)
            .await
            .ok()?;
        for candidate in closest(word, bucket).into_iter().take(CHECKED_AT_MOST) {
            if super::search::reads_word(db, &candidate, actor).await {
                return Some(candidate);
            }
        }
    }
    None
}

/// `input` with its misspelt words replaced, when any is and every
/// replacement is in a document the reader may read.
pub async fn suggest(db: &Db, input: &str, q: &Query, actor: Caller<'_>) -> Option<String> {
    let mut fixes: Vec<(String, String)> = Vec::new();
    let mut looked_up = 0;
    for term in q.wanted() {
        for (i, word) in term.words.iter().enumerate() {
            let prefix = term.prefix && i + 1 == term.words.len();
            // The index keeps words folded (no accents): only plain letters
            // compare as typed.
            let plain = word.len() >= 3 && word.bytes().all(|b| b.is_ascii_alphabetic());
            if !plain
                || looked_up == LOOKED_UP_AT_MOST
                || fixes.iter().any(|(w, _)| w == word)
                || indexed(db, word, prefix).await
            {
                continue;
            }
            looked_up += 1;
            if let Some(fixed) = meant(db, word, actor).await {
                fixes.push((word.clone(), fixed));
            }
        }
    }
    (!fixes.is_empty()).then(|| replaced(input, &fixes))
}

/// `input` with each whole word that is (case aside) a misspelt word of
/// `fixes` replaced by its fix; everything else as typed.
fn replaced(input: &str, fixes: &[(String, String)]) -> String {
    let mut out = String::with_capacity(input.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let lower = word.to_lowercase();
        match fixes.iter().find(|(w, _)| *w == lower) {
            Some((_, fix)) => out.push_str(fix),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in input.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str) -> Option<usize> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        distance(&a, &b, 2)
    }

    #[test]
    fn swaps_count_once() {
        assert_eq!(d("deplyo", "deploy"), Some(1));
        assert_eq!(d("rollbak", "rollback"), Some(1));
        assert_eq!(d("tomato", "tomato"), Some(0));
        assert_eq!(d("garden", "kitchen"), None);
        assert_eq!(d("ab", "abcde"), None);
    }

    #[test]
    fn the_closest_word_comes_first() {
        let bucket = ["deploy", "deplete", "deployed", "depot", "déploy"]
            .map(|w| (w.to_string(), 1))
            .to_vec();
        assert_eq!(closest("deplyo", bucket)[0], "deploy");
        assert!(closest("deplyo", vec![("deplyo".into(), 1)]).is_empty());
        // As near, the word more documents hold.
        let bucket = vec![("garde".to_string(), 3), ("garden".to_string(), 900)];
        assert_eq!(closest("gardn", bucket)[0], "garden");
    }

    #[test]
    fn only_the_misspelt_words_are_replaced() {
        let fixes = [("deplyo".to_string(), "deploy".to_string())];
        assert_eq!(
            replaced("Deplyo OR title:\"deplyo plan\" -deplyoment", &fixes),
            "deploy OR title:\"deploy plan\" -deplyoment"
        );
    }
}
