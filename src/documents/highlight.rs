//! Code blocks highlighted when a document is saved, on the server: spans with
//! classes (`hl-keyword`, `hl-string`, …) that the stylesheet colours, never
//! inline styles (the CSP forbids them). A language nobody knows, or a block too
//! long to be worth it, stays plain text.

use std::sync::OnceLock;

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
    match lang.and_then(|l| highlighted(code, l)) {
        Some(spans) => format!(r#"<pre class="hl"><code{class}>{spans}</code></pre>"#),
        None => format!("<pre><code{class}>{}</code></pre>", escape(code)),
    }
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
    use super::{block, language};

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
