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
    /// The run of text being joined: one event as it came, or several grown
    /// in place (a paragraph of many `_` is many events, and copying the run
    /// at each one would take time squared).
    #[derive(Default)]
    struct Run<'a> {
        first: Option<CowStr<'a>>,
        grown: Option<String>,
    }
    impl<'a> Run<'a> {
        fn push(&mut self, next: CowStr<'a>) {
            if let Some(grown) = &mut self.grown {
                grown.push_str(&next);
            } else if let Some(first) = self.first.take() {
                let mut grown = first.into_string();
                grown.push_str(&next);
                self.grown = Some(grown);
            } else {
                self.first = Some(next);
            }
        }
        fn flush(&mut self, out: &mut Vec<Event<'a>>) {
            let text = match (self.grown.take(), self.first.take()) {
                (Some(grown), _) => Some(CowStr::from(grown)),
                (None, first) => first,
            };
            out.extend(text.map(Event::Text));
        }
    }
    let mut out = Vec::with_capacity(events.len());
    let mut run = Run::default();
    for event in events {
        match event {
            Event::Text(next) => run.push(next),
            other => {
                run.flush(&mut out);
                out.push(other);
            }
        }
    }
    run.flush(&mut out);
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

/// Where bare addresses may start.
const PREFIXES: [&str; 3] = ["https://", "http://", "www."];

/// The next bare address in `text` from byte `from`: its start and end. Each
/// prefix is looked for again only once the search has passed where it was
/// last found, so a text of many candidates is read once, not once each.
fn next_address(text: &str, from: usize) -> Option<(usize, usize)> {
    let find = |p: &str, at: usize| text[at..].find(p).map(|i| at + i);
    let mut next: [Option<usize>; 3] = PREFIXES.map(|p| find(p, from));
    loop {
        let (which, start) = next
            .iter()
            .enumerate()
            .filter_map(|(i, at)| at.map(|at| (i, at)))
            .min_by_key(|(_, at)| *at)?;
        let prefix = PREFIXES[which];
        let before = text[..start].chars().next_back();
        if before.is_none_or(|c| c.is_whitespace() || "(<[\"'*_~".contains(c)) {
            let end = address_end(text, start);
            let long_enough = end > start + prefix.len() + 1
                && text[start + prefix.len()..end].contains(|c: char| c.is_alphanumeric());
            if long_enough && (prefix != "www." || text[start + 4..end].contains('.')) {
                return Some((start, end));
            }
        }
        next[which] = find(prefix, start + prefix.len());
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
    let open = text[start..end].matches('(').count();
    let mut close = text[start..end].matches(')').count();
    loop {
        let Some(last) = text[start..end].chars().next_back() else {
            return end;
        };
        let unbalanced = last == ')' && open < close;
        if ".,:;!?'\"*_~".contains(last) || unbalanced {
            end -= last.len_utf8();
            if last == ')' {
                close -= 1;
            }
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
