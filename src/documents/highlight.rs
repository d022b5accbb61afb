//! Code blocks highlighted when a document is saved, on the server: spans with
//! classes (`hl-keyword`, `hl-string`, …) that the stylesheet colours, never
//! inline styles (the CSP forbids them). A language nobody knows, or a block too
//! long to be worth it, stays plain text.
//!
//! A save renders the whole text again, but an edit seldom touches its code:
//! highlighted blocks are kept (`Kept`, a few MB at most), so a block already
//! highlighted is not highlighted again.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

use super::escape::escape;

/// A block longer than this is shown plain: highlighting costs time on save.
const MAX_BLOCK: usize = 32 * 1024;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// The language named in a fence's info string, if it is a plain word.
pub fn language(info: &str) -> Option<String> {
    let word = info.split_whitespace().next()?.to_ascii_lowercase();
    let plain = !word.is_empty()
        && word.len() <= 32
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'#' | b'-' | b'_'));
    plain.then_some(word)
}

/// `<pre><code>` for a block, highlighted when its language is known.
pub fn block(code: &str, lang: Option<&str>) -> String {
    let class = lang.map_or(String::new(), |l| format!(r#" class="language-{l}""#));
    match lang.and_then(|l| kept_or_highlighted(code, l)) {
        Some(spans) => format!(r#"<pre class="hl"><code{class}>{spans}</code></pre>"#),
        None => format!("<pre><code{class}>{}</code></pre>", escape(code)),
    }
}

/// Highlighted blocks kept at most, in bytes of code and spans together.
const KEPT_BYTES: usize = 8 << 20;

/// Blocks highlighted lately, by language and code, the oldest let go first.
#[derive(Default)]
struct Kept {
    spans: HashMap<(String, String), Arc<str>>,
    order: VecDeque<(String, String)>,
    bytes: usize,
}

fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(Mutex::default)
}

/// The spans of `code` in `lang`: kept from an earlier save, or highlighted now
/// (outside the lock) and kept.
fn kept_or_highlighted(code: &str, lang: &str) -> Option<String> {
    let key = (lang.to_owned(), code.to_owned());
    if let Ok(kept) = kept().lock()
        && let Some(spans) = kept.spans.get(&key)
    {
        return Some(spans.to_string());
    }
    let spans = highlighted(code, lang)?;
    let size = code.len() + lang.len() + spans.len();
    if size <= KEPT_BYTES / 16
        && let Ok(mut kept) = kept().lock()
        && !kept.spans.contains_key(&key)
    {
        while kept.bytes + size > KEPT_BYTES {
            let Some(old) = kept.order.pop_front() else {
                break;
            };
            if let Some(gone) = kept.spans.remove(&old) {
                kept.bytes -= old.0.len() + old.1.len() + gone.len();
            }
        }
        kept.bytes += size;
        kept.order.push_back(key.clone());
        kept.spans.insert(key, Arc::from(spans.as_str()));
    }
    Some(spans)
}

fn highlighted(code: &str, lang: &str) -> Option<String> {
    if code.len() > MAX_BLOCK {
        return None;
    }
    let set = syntaxes();
    let syntax = set.find_syntax_by_token(lang)?;
    let mut out = ClassedHTMLGenerator::new_with_class_style(
        syntax,
        set,
        ClassStyle::SpacedPrefixed { prefix: "hl-" },
    );
    for line in LinesWithEndings::from(code) {
        out.parse_html_for_line_which_includes_newline(line).ok()?;
    }
    Some(out.finalize())
}

#[cfg(test)]
mod tests {
    use super::{block, kept, language};

    #[test]
    fn a_block_highlighted_once_is_kept_and_comes_back_the_same() {
        let code = "SELECT id FROM kept_once_table WHERE n > 1;\n";
        let first = block(code, Some("sql"));
        let key = ("sql".to_owned(), code.to_owned());
        assert!(kept().lock().unwrap().spans.contains_key(&key));
        assert_eq!(block(code, Some("sql")), first);
        // The same code in another language is another block.
        assert_ne!(block(code, Some("rust")), first);
    }

    #[test]
    fn known_languages_get_classes_and_the_code_stays_escaped() {
        let html = block("fn main() { let s = \"<b>\"; }\n", Some("rust"));
        assert!(
            html.starts_with(r#"<pre class="hl"><code class="language-rust">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="hl-storage hl-type hl-function hl-rust">fn</span>"#),
            "{html}"
        );
        assert!(
            html.contains("&lt;b&gt;") && !html.contains("<b>"),
            "{html}"
        );
        assert!(!html.contains("style="), "{html}");
    }

    #[test]
    fn unknown_or_odd_languages_stay_plain() {
        assert_eq!(
            block("a < b\n", Some("nosuch")),
            r#"<pre><code class="language-nosuch">a &lt; b
</code></pre>"#
        );
        assert_eq!(language(r#"js" onclick="x"#), None);
        assert_eq!(language("Rust ignore"), Some("rust".into()));
    }
}
