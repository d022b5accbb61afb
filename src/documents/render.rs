//! Markdown to safe HTML. Runs once per save, never per page view: sanitising costs
//! far more than reading the stored result.

use std::sync::OnceLock;

use pulldown_cmark::{Options, Parser, html};

/// Bump when the output for the same source changes, so stored HTML can be redone.
pub const RENDER_VERSION: i64 = 1;

pub fn render_markdown(source: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut unsafe_html = String::with_capacity(source.len() + source.len() / 4);
    html::push_html(&mut unsafe_html, Parser::new_ext(source, options));
    sanitizer().clean(&unsafe_html).to_string()
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.link_rel(Some("noopener noreferrer nofollow"))
            .add_tag_attributes("input", ["type", "checked", "disabled"])
            .add_tags(["input"]);
        b
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_html() {
        let html = render_markdown("# Title\n\nSome *text* and a [link](https://example.org).");
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<em>text</em>"));
        assert!(html.contains(r#"rel="noopener noreferrer nofollow""#));
    }

    #[test]
    fn scripts_and_handlers_are_removed() {
        let html = render_markdown(
            "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))",
        );
        assert!(!html.contains("<script"));
        assert!(!html.contains("onerror"));
        assert!(!html.contains("javascript:"));
    }

    #[test]
    fn task_lists_keep_their_checkboxes() {
        let html = render_markdown("- [x] done\n- [ ] todo");
        assert!(html.contains("checkbox"), "{html}");
    }
}
