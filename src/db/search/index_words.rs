//! What the trigram index is given of a document's text: each of its words
//! once, not the running text.
//!
//! The trigram index finds parts of words. FTS5 writes one entry to its hash of
//! pending terms for every trigram of the text it is given, about one per
//! character: for a 4 KB document some 4,000, most of them the same trigrams
//! again (the same words) or trigrams across a space, which no search asks for:
//! a search asks only for the trigrams inside each of its words
//! (`documents::search_fts::trigram_expr`) and checks each candidate's text for
//! the whole sequence it was given. So the index is given each word of three
//! characters or more once, in the order met, one space between.
//!
//! A word here is cut only where a search's word must end too: at whitespace
//! and at ASCII characters other than letters and digits. A search's words are
//! runs of letters and digits (`documents::search_terms`), so each of them, in
//! the text, lies inside one word here, and each of its trigrams is given to the
//! index. Words that differ only in ASCII case are one word to the index
//! (it folds case) and are given once.
//!
//! Registered on every SQLite connection as `quire_index_words(text)`, so the
//! indexer's `INSERT … SELECT` copies nothing out of SQLite and back.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ffi::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

use foldhash::fast::RandomState;

use libsqlite3_sys::{
    SQLITE_DETERMINISTIC, SQLITE_NULL, SQLITE_OK, SQLITE_TRANSIENT, SQLITE_UTF8, sqlite3_context,
    sqlite3_create_function_v2, sqlite3_result_error, sqlite3_result_null, sqlite3_result_text64,
    sqlite3_value, sqlite3_value_bytes, sqlite3_value_text, sqlite3_value_type,
};
use sqlx::sqlite::SqliteConnection;

/// Each word of `text` of three characters or more, once, one space between.
pub fn index_words(text: &str) -> String {
    let mut seen: HashSet<Cow<'_, str>, RandomState> = HashSet::default();
    let mut out = String::with_capacity(text.len() / 2);
    let cut = |c: char| c.is_whitespace() || (c.is_ascii() && !c.is_ascii_alphanumeric());
    for word in text.split(cut) {
        if word.chars().nth(2).is_none() {
            continue;
        }
        let key = match word.bytes().any(|b| b.is_ascii_uppercase()) {
            true => Cow::Owned(word.to_ascii_lowercase()),
            false => Cow::Borrowed(word),
        };
        if seen.insert(key) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

/// The SQL function's name, as the indexer's statements call it.
const NAME: &std::ffi::CStr = c"quire_index_words";

/// Makes `quire_index_words(text)` known to `conn`.
pub(in crate::db) async fn register(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    // SAFETY: `db` is the connection's open handle, held locked away from its
    // worker thread for the length of this call; the name is a static C
    // string, the function takes no application data and keeps no state.
    let rc = unsafe {
        sqlite3_create_function_v2(
            db,
            NAME.as_ptr(),
            1,
            SQLITE_UTF8 | SQLITE_DETERMINISTIC,
            std::ptr::null_mut(),
            Some(call),
            None,
            None,
            None,
        )
    };
    if rc != SQLITE_OK {
        return Err(sqlx::Error::Configuration(
            format!("SQLite refused the function {NAME:?} ({rc})").into(),
        ));
    }
    Ok(())
}

/// SQLite's call of `quire_index_words(text)`: NULL for NULL.
unsafe extern "C" fn call(ctx: *mut sqlite3_context, argc: c_int, argv: *mut *mut sqlite3_value) {
    // SAFETY: SQLite calls this with its context and `argc` values (one, as
    // registered); the text pointer it returns for a value stays valid until
    // the value is changed or freed, which nothing here does, and holds
    // `sqlite3_value_bytes` bytes (asked after the text, as SQLite says to).
    // The result is copied by SQLite before `words` is dropped (TRANSIENT).
    unsafe {
        if argc != 1 || sqlite3_value_type(*argv) == SQLITE_NULL {
            sqlite3_result_null(ctx);
            return;
        }
        let text = sqlite3_value_text(*argv);
        let len = usize::try_from(sqlite3_value_bytes(*argv)).unwrap_or(0);
        if text.is_null() {
            sqlite3_result_null(ctx);
            return;
        }
        let bytes = std::slice::from_raw_parts(text, len);
        let words = catch_unwind(AssertUnwindSafe(|| {
            index_words(&String::from_utf8_lossy(bytes))
        }));
        match words {
            Ok(words) => sqlite3_result_text64(
                ctx,
                words.as_ptr() as *const c_char,
                words.len() as u64,
                SQLITE_TRANSIENT(),
                SQLITE_UTF8 as u8,
            ),
            Err(_) => {
                let message = c"quire_index_words failed";
                sqlite3_result_error(ctx, message.as_ptr(), -1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_of_three_characters_or_more_once_in_the_order_met() {
        assert_eq!(
            index_words("The cat and THE dog: the_cat's bowl, a dog-bowl."),
            "The cat and dog bowl"
        );
        // Non-ASCII letters, marks and punctuation stay inside a word.
        assert_eq!(
            index_words("naïve nai\u{308}ve Straße STRASSE „Zitat“ 全文検索 x1 y22"),
            "naïve nai\u{308}ve Straße STRASSE „Zitat“ 全文検索 y22"
        );
        assert_eq!(index_words(""), "");
        assert_eq!(index_words("a b c"), "");
    }

    #[test]
    fn every_trigram_a_search_asks_for_is_in_what_the_index_is_given() {
        let text = "Gardeners' ledger: tomato-plants (x86_64) grew, café\u{301} “Überraschung”\n\
                    tabs\tand  spaces; 2026-11-29 ünïcödé";
        let given = index_words(text).to_lowercase();
        // Every run of letters and digits of three characters or more in the
        // text, as a search reads its words, and each of its trigrams.
        let words = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 3);
        for word in words {
            let chars: Vec<char> = word.to_lowercase().chars().collect();
            for w in chars.windows(3) {
                let gram: String = w.iter().collect();
                assert!(
                    given.contains(&gram),
                    "{gram:?} of {word:?} not in {given:?}"
                );
            }
        }
    }

    #[tokio::test]
    async fn sqlite_calls_it_by_name() {
        use sqlx::{Connection, Row};
        let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        register(&mut conn).await.unwrap();
        let row = sqlx::query(
            "SELECT quire_index_words('one two one THREE three'), quire_index_words(NULL)",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        assert_eq!(row.get::<String, _>(0), "one two THREE");
        assert_eq!(row.get::<Option<String>, _>(1), None);
    }
}
