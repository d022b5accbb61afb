//! Headings of a rendered document: an id for each (so a section can be linked),
//! a link to itself beside it, and a table of contents for longer documents.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Tag, TagEnd};

use super::escape::escape;

/// Every id a heading gets starts so, as the sanitiser prefixes every id in the
/// text: nothing a writer puts in can shadow a name the page's own script uses.
pub const ID_PREFIX: &str = "h-";

/// A table of contents is shown from this many headings on.
const TOC_FROM: usize = 3;

pub struct Heading {
    level: HeadingLevel,
    text: String,
    /// Without the prefix, as the writer's HTML carries it before sanitising.
    slug: String,
}

/// Gives each heading in `events` an id made from its text (unique in the
/// document), and returns the headings in order.
pub fn name(events: &mut [Event<'_>]) -> Vec<Heading> {
    let mut found = Vec::new();
    let mut taken = std::collections::HashSet::new();
    let mut i = 0;
    while i < events.len() {
        let Event::Start(Tag::Heading { level, .. }) = &events[i] else {
            i += 1;
            continue;
        };
        let level = *level;
        let mut text = String::new();
        let mut end = i + 1;
        while end < events.len() && !matches!(events[end], Event::End(TagEnd::Heading(_))) {
            if let Event::Text(t) | Event::Code(t) = &events[end] {
                text.push_str(t);
            }
            end += 1;
        }
        let base = slug(&text);
        let mut slug = base.clone();
        let mut n = 1;
        while !taken.insert(slug.clone()) {
            n += 1;
            slug = format!("{base}-{n}");
        }
        if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
            *id = Some(CowStr::from(slug.clone()));
        }
        found.push(Heading {
            level,
            text: text.trim().to_owned(),
            slug,
        });
        i = end;
    }
    found
}

/// Lower-case letters and digits of any script, words joined by `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if (c.is_whitespace() || c == '-' || c == '_') && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() {
        "section".to_owned()
    } else {
        out
    }
}

/// Adds a link to itself after each heading's text, in sanitised HTML.
pub fn link(html: String, headings: &[Heading]) -> String {
    let mut out = html;
    for h in headings {
        let tag = level_tag(h.level);
        let open = format!(r#"<{tag} id="{ID_PREFIX}{}">"#, h.slug);
        let Some(start) = out.find(&open) else {
            continue;
        };
        let close = format!("</{tag}>");
        let Some(end) = out[start..].find(&close).map(|e| start + e) else {
            continue;
        };
        let anchor = format!(
            r##"<a class="anchor" href="#{ID_PREFIX}{}" aria-label="Link to this section">#</a>"##,
            h.slug
        );
        out.insert_str(end, &anchor);
    }
    out
}

/// The table of contents, for documents with enough headings to need one.
pub fn contents(headings: &[Heading]) -> Option<String> {
    if headings.len() < TOC_FROM {
        return None;
    }
    let top = headings.iter().map(|h| h.level as usize).min().unwrap_or(1);
    let mut out = String::from(
        r#"<nav class="toc" aria-label="Contents"><details open><summary>Contents</summary><ol>"#,
    );
    for h in headings {
        let depth = (h.level as usize).saturating_sub(top).min(3);
        out.push_str(&format!(
            r##"<li class="toc-{depth}"><a href="#{ID_PREFIX}{}">{}</a></li>"##,
            h.slug,
            escape(&h.text)
        ));
    }
    out.push_str("</ol></details></nav>");
    Some(out)
}

fn level_tag(level: HeadingLevel) -> &'static str {
    match level {
        HeadingLevel::H1 => "h1",
        HeadingLevel::H2 => "h2",
        HeadingLevel::H3 => "h3",
        HeadingLevel::H4 => "h4",
        HeadingLevel::H5 => "h5",
        HeadingLevel::H6 => "h6",
    }
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_keep_letters_of_any_script_and_join_words() {
        assert_eq!(slug("Why plain text?"), "why-plain-text");
        assert_eq!(slug("  Café — über  "), "café-über");
        assert_eq!(slug("会议 记录"), "会议-记录");
        assert_eq!(slug("!!!"), "section");
    }
}
