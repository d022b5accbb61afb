//! Markdown to safe HTML. Runs once per save, never per page view: sanitising costs
//! far more than reading the stored result.

use std::sync::OnceLock;

use pulldown_cmark::{CowStr, Event, Options, Parser, html};

/// Bump when the output for the same source changes, so stored HTML can be redone.
/// 2: `<input>` written in the text is removed; only task-list boxes remain.
pub const RENDER_VERSION: i64 = 2;

pub fn render_markdown(source: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    // Task-list boxes leave the parser as a mark the writer cannot guess (fresh
    // for every render) and come back as checkboxes after sanitising, which
    // removes every `<input>` the text itself contains (fake fields, buttons).
    let mark = task_mark();
    let (done, todo) = (format!("{mark}x\u{E000}"), format!("{mark}o\u{E000}"));
    let events = Parser::new_ext(source, options).map(|e| match e {
        Event::TaskListMarker(checked) => Event::Text(CowStr::from(if checked {
            done.clone()
        } else {
            todo.clone()
        })),
        other => other,
    });
    let mut unsafe_html = String::with_capacity(source.len() + source.len() / 4);
    html::push_html(&mut unsafe_html, events);
    let clean = sanitizer().clean(&unsafe_html).to_string();
    if !clean.contains(&mark) {
        return clean;
    }
    clean
        .replace(&done, r#"<input type="checkbox" disabled checked> "#)
        .replace(&todo, r#"<input type="checkbox" disabled> "#)
}

fn task_mark() -> String {
    let mut bytes = [0u8; 12];
    // Without randomness the mark is still one no text is likely to hold.
    let _ = getrandom::fill(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("\u{E000}quire-task-{hex}-")
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.link_rel(Some("noopener noreferrer nofollow"));
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
        assert!(
            html.contains(r#"<input type="checkbox" disabled checked> done"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<input type="checkbox" disabled> todo"#),
            "{html}"
        );
    }

    #[test]
    fn inputs_written_in_the_text_are_removed() {
        let html = render_markdown(
            "<input type=\"password\" name=\"pw\">\n\n- [ ] <input type=\"checkbox\" checked>\n\nx <input type=submit value=Go>",
        );
        assert_eq!(html.matches("<input").count(), 1, "{html}");
        assert!(
            !html.contains("password") && !html.contains("submit"),
            "{html}"
        );
    }
}
