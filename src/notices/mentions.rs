//! `@name` in a document's text: the people it mentions. Only prose counts:
//! not code (fenced, indented or inline), not an email address, not a link's
//! target.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// At most this many names from one text are looked up.
const MOST: usize = 50;

/// The names mentioned in `markdown`, lower case, each once, in order.
pub fn names(markdown: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut in_code = 0usize;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Text(text) if in_code == 0 => {
                for name in in_text(&text) {
                    if found.len() < MOST && !found.contains(&name) {
                        found.push(name);
                    }
                }
            }
            _ => {}
        }
    }
    found
}

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// `@name`s in one run of plain text; an `@` right after a letter or digit
/// (an email address) is not one.
fn in_text(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut before: Option<char> = None;
    for (i, c) in text.char_indices() {
        let starts = c == '@' && !before.is_some_and(|b| name_char(b) || b == '@');
        before = Some(c);
        if !starts {
            continue;
        }
        let rest = &text[i + 1..];
        let end = rest.find(|c: char| !name_char(c)).unwrap_or(rest.len());
        // A sentence's full stop or a dash after the name is not part of it.
        let name = rest[..end].trim_end_matches(['.', '-']);
        if !name.is_empty() && name.chars().count() <= 64 {
            out.push(name.to_lowercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn prose_mentions_count_and_code_and_email_do_not() {
        let text = "Ask @Bob, then @carol.\n\nMail dave@example.org or see `@eve`.\n\n\
                    ```\n@frank\n```\n\n    @grace\n\n@bob again, and @h_i-j.";
        assert_eq!(names(text), ["bob", "carol", "h_i-j"]);
    }

    #[test]
    fn a_lone_at_sign_names_nobody() {
        assert!(names("@ and @@ and a@").is_empty());
    }
}
