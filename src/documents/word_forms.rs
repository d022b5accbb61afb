//! Other forms of a searched word: `tomatoes` finds `tomato`, `deploy` finds
//! `deployed` and `deploying`. The words are not stemmed in the index: at
//! search time each word's Snowball stem is taken, the index's vocabulary is
//! read for the words that start as it does, and those with the same stem are
//! looked for too, after the exact words (so exact forms rank above). The
//! index stays as it was (no second index to keep, nothing to rebuild when
//! the language changes), and parts of words and CJK search are untouched.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::search_terms::Query;
use crate::db::Db;
use crate::db::search::vocabulary;

/// The languages quire has stemmers for, as the setting names them, and
/// `none` (exact words only).
pub const LANGUAGES: &[(&str, Option<Algorithm>)] = &[
    ("english", Some(Algorithm::English)),
    ("danish", Some(Algorithm::Danish)),
    ("dutch", Some(Algorithm::Dutch)),
    ("finnish", Some(Algorithm::Finnish)),
    ("french", Some(Algorithm::French)),
    ("german", Some(Algorithm::German)),
    ("hungarian", Some(Algorithm::Hungarian)),
    ("italian", Some(Algorithm::Italian)),
    ("norwegian", Some(Algorithm::Norwegian)),
    ("portuguese", Some(Algorithm::Portuguese)),
    ("romanian", Some(Algorithm::Romanian)),
    ("russian", Some(Algorithm::Russian)),
    ("spanish", Some(Algorithm::Spanish)),
    ("swedish", Some(Algorithm::Swedish)),
    ("turkish", Some(Algorithm::Turkish)),
    ("none", None),
];

static LANGUAGE: OnceLock<Option<Algorithm>> = OnceLock::new();

/// Sets the language of word forms for this process, once, at start-up (the
/// setting `search_language`); English when never set.
pub fn set_language(name: &str) -> Result<(), String> {
    let found = LANGUAGES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = LANGUAGES.iter().map(|(n, _)| *n).collect();
            format!(
                "unknown search language {name:?}: one of {}",
                names.join(", ")
            )
        })?;
    // A second start in one process (tests) keeps the first setting.
    let _ = LANGUAGE.set(found.1);
    Ok(())
}

fn language() -> Option<Algorithm> {
    *LANGUAGE.get_or_init(|| Some(Algorithm::English))
}

/// Words read from the vocabulary for one word's forms: more than a word has
/// forms, fewer than a short stem's neighbours in a large index.
const RANGE_AT_MOST: i64 = 300;
/// Forms looked for per word.
const FORMS_AT_MOST: usize = 16;

/// Other forms of some of a query's words.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Forms(Vec<(String, Vec<String>)>);

impl Forms {
    pub fn add(&mut self, word: &str, forms: Vec<String>) {
        if !forms.is_empty() {
            self.0.push((word.to_string(), forms));
        }
    }

    pub fn of<'a>(&'a self, word: &str) -> impl Iterator<Item = &'a str> + use<'a> {
        let found = self.0.iter().find(|(w, _)| w == word);
        found
            .into_iter()
            .flat_map(|(_, f)| f.iter().map(String::as_str))
    }

    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.0
            .iter()
            .flat_map(|(_, f)| f.iter().map(String::as_str))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The index's other forms of each plain word of `q` (not in phrases: quotes
/// ask for the words as typed). A word the vocabulary cannot be read for
/// keeps no forms: the search goes on with the exact words.
pub(super) async fn forms(db: &Db, q: &Query) -> Forms {
    let mut out = Forms::default();
    let Some(algorithm) = language() else {
        return out;
    };
    let stemmer = Stemmer::create(algorithm);
    for term in q.wanted().filter(|t| !t.phrase) {
        let [word] = term.words.as_slice() else {
            continue;
        };
        if !word.chars().all(char::is_alphabetic) || out.of(word).next().is_some() {
            continue;
        }
        let stem = stemmer.stem(word);
        // Forms share the start of the word and its stem (English stems
        // `happy` as `happi`): read the words that start with that.
        let start: String = word
            .chars()
            .zip(stem.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a)
            .collect();
        if start.chars().count() < 3 {
            continue;
        }
        let end = format!("{start}\u{10FFFF}");
        match vocabulary::words_between(db, (&start, &end), RANGE_AT_MOST).await {
            Ok(words) => {
                let forms: Vec<String> = words
                    .into_iter()
                    .map(|(w, _)| w)
                    .filter(|w| w != word && stemmer.stem(w) == stem)
                    .take(FORMS_AT_MOST)
                    .collect();
                out.add(word, forms);
            }
            Err(e) => tracing::warn!(error = %e, "could not read the search vocabulary"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_forms_share_a_stem() {
        let en = Stemmer::create(Algorithm::English);
        for (a, b) in [
            ("tomatoes", "tomato"),
            ("deploy", "deployed"),
            ("deploying", "deployment"),
            ("happy", "happiness"),
        ] {
            assert_eq!(en.stem(a), en.stem(b), "{a} / {b}");
        }
        assert_ne!(en.stem("runtime"), en.stem("run"));
    }

    #[test]
    fn a_language_is_named_or_refused() {
        assert!(set_language("English").is_ok());
        assert!(set_language("klingon").unwrap_err().contains("english"));
    }
}
