//! Two things a text says without Markdown's syntax for them: a bare address
//! (`https://example.org`, `www.example.org`) is a link, and `==words==` are
//! highlighted (`<mark>`). Neither inside a link, an image's text, code or
//! the front matter; the sanitiser's rules for links still apply.

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

/// `events` with bare addresses made links and `==…==` marked.
pub fn make(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    let mut inside = 0usize;
    for event in joined(events) {
        match &event {
            Event::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::MetadataBlock(_)) => {
                inside += 1;
            }
            Event::End(TagEnd::Link | TagEnd::Image | TagEnd::MetadataBlock(_)) => {
                inside = inside.saturating_sub(1);
            }
            Event::Text(text) if inside == 0 && worth_a_look(text) => {
                out.extend(split(text));
                continue;
            }
            _ => {}
        }
        out.push(event);
    }
    out
}

/// `events` with each run of text in one event: the parser splits text at
/// characters that might have started markup (`_`, `(`), and an address
/// may hold them.
fn joined(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    for event in events {
        if let (Event::Text(next), Some(Event::Text(text))) = (&event, out.last_mut()) {
            let mut both = text.to_string();
            both.push_str(next);
            *text = CowStr::from(both);
            continue;
        }
        out.push(event);
    }
    out
}

fn worth_a_look(text: &str) -> bool {
    text.contains("==") || text.contains("://") || text.contains("www.")
}

/// `text` as text, links and marks.
fn split(text: &str) -> Vec<Event<'static>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some((start, end)) = next_address(text, at) {
        marked(&text[at..start], &mut out);
        let address = &text[start..end];
        let dest = if address.starts_with("www.") {
            format!("https://{address}")
        } else {
            address.to_owned()
        };
        out.push(Event::Start(Tag::Link {
            link_type: LinkType::Autolink,
            dest_url: CowStr::from(dest),
            title: CowStr::from(""),
            id: CowStr::from(""),
        }));
        out.push(Event::Text(CowStr::from(address.to_owned())));
        out.push(Event::End(TagEnd::Link));
        at = end;
    }
    marked(&text[at..], &mut out);
    out
}

/// The next bare address in `text` from byte `from`: its start and end.
fn next_address(text: &str, from: usize) -> Option<(usize, usize)> {
    let mut search = from;
    loop {
        let rest = &text[search..];
        let found = ["https://", "http://", "www."]
            .iter()
            .filter_map(|p| rest.find(p).map(|i| (search + i, *p)))
            .min_by_key(|(i, _)| *i)?;
        let (start, prefix) = found;
        let before = text[..start].chars().next_back();
        let at_word_start = before.is_none_or(|c| c.is_whitespace() || "(<[\"'*_~".contains(c));
        let end = address_end(text, start);
        let long_enough = end > start + prefix.len() + 1
            && text[start + prefix.len()..end].contains(|c: char| c.is_alphanumeric());
        let www_has_dot = long_enough && (prefix != "www." || text[start + 4..end].contains('.'));
        if at_word_start && long_enough && www_has_dot {
            return Some((start, end));
        }
        search = start + prefix.len();
    }
}

/// Where an address that starts at `start` ends: at white space or `<`, less
/// the punctuation that ends a sentence and a `)` it did not open.
fn address_end(text: &str, start: usize) -> usize {
    let rest = &text[start..];
    let mut end = start
        + rest
            .find(|c: char| c.is_whitespace() || c == '<')
            .unwrap_or(rest.len());
    loop {
        let Some(last) = text[start..end].chars().next_back() else {
            return end;
        };
        let unbalanced = last == ')'
            && text[start..end].matches('(').count() < text[start..end].matches(')').count();
        if ".,:;!?'\"*_~".contains(last) || unbalanced {
            end -= last.len_utf8();
        } else {
            return end;
        }
    }
}

/// `text` as text, with each `==words==` as a mark.
fn marked(text: &str, out: &mut Vec<Event<'static>>) {
    let mut rest = text;
    while let Some(open) = rest.find("==") {
        let inner_start = open + 2;
        let Some(len) = rest[inner_start..].find("==") else {
            break;
        };
        let inner = &rest[inner_start..inner_start + len];
        if inner.is_empty()
            || inner.starts_with(char::is_whitespace)
            || inner.ends_with(char::is_whitespace)
        {
            // Not a mark: keep the `==` as text and look further.
            push_text(&rest[..inner_start], out);
            rest = &rest[inner_start..];
            continue;
        }
        push_text(&rest[..open], out);
        out.push(Event::InlineHtml(CowStr::from("<mark>")));
        push_text(inner, out);
        out.push(Event::InlineHtml(CowStr::from("</mark>")));
        rest = &rest[inner_start + len + 2..];
    }
    push_text(rest, out);
}

fn push_text(text: &str, out: &mut Vec<Event<'static>>) {
    if !text.is_empty() {
        out.push(Event::Text(CowStr::from(text.to_owned())));
    }
}

#[cfg(test)]
mod tests {
    use super::super::render::render_markdown as html;

    #[test]
    fn bare_addresses_are_links_without_the_sentence_around_them() {
        let out = html("See https://example.org/a_(b). And www.example.net, too.");
        assert!(
            out.contains(r#"<a href="https://example.org/a_(b)" rel="noopener noreferrer nofollow">https://example.org/a_(b)</a>."#),
            "{out}"
        );
        assert!(
            out.contains(r#"<a href="https://www.example.net" rel="noopener noreferrer nofollow">www.example.net</a>,"#),
            "{out}"
        );
        // Already a link, in code, or a scheme that is not the web's: left alone.
        let out = html("[site](https://example.org) `https://in.code` javascript://x");
        assert_eq!(out.matches("<a ").count(), 1, "{out}");
        assert!(!out.contains(r#"href="javascript"#), "{out}");
        assert!(html("swww.x.org and www. alone").matches("<a ").count() == 0);
    }

    #[test]
    fn double_equals_highlight_and_code_stays_as_written() {
        let out = html("a ==b c== d and `==e==` and a == b == c");
        assert!(out.contains("a <mark>b c</mark> d"), "{out}");
        assert!(out.contains("<code>==e==</code>"), "{out}");
        assert!(out.contains("a == b == c"), "{out}");
    }

    #[test]
    fn definition_lists_and_front_matter() {
        let out = html("Term\n: What it means.");
        assert!(
            out.contains("<dl>") && out.contains("<dt>Term</dt>"),
            "{out}"
        );
        assert!(out.contains("<dd>What it means.</dd>"), "{out}");
        let out = html("---\naliases: [Other name]\n---\n\n# Title");
        assert!(!out.contains("aliases") && out.contains("Title"), "{out}");
    }
}
