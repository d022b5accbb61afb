//! Inline tags: `#tag` written in a document's prose (as Obsidian and Bear
//! write them) becomes one of its tags when it is saved with its tags or
//! imported. A tag starts after a space, a line's start or an opening bracket,
//! is letters, digits, `_`, `-` and `/` (`#project/alpha`), and is not all
//! digits (`#42` is an issue's number). Not a tag: anything in code, a
//! heading, a link or an image, HTML, math, front matter, or after a word
//! (`C#`, an address's `/#anchor`).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::place;
use super::render::OPTIONS;

/// The inline tags of `body`, as quire keeps tags, each once, in order.
pub fn inline_tags(body: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut prose = String::new();
    // How deep in a part of the text whose words are never tags.
    let mut skip = 0usize;
    for event in Parser::new_ext(body, OPTIONS) {
        match event {
            Event::Start(
                Tag::CodeBlock(_)
                | Tag::Heading { .. }
                | Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::MetadataBlock(_)
                | Tag::HtmlBlock,
            ) => {
                scan(&prose, &mut found);
                prose.clear();
                skip += 1;
            }
            Event::End(
                TagEnd::CodeBlock
                | TagEnd::Heading(_)
                | TagEnd::Link
                | TagEnd::Image
                | TagEnd::MetadataBlock(_)
                | TagEnd::HtmlBlock,
            ) => skip = skip.saturating_sub(1),
            Event::Text(text) if skip == 0 => prose.push_str(&text),
            Event::SoftBreak | Event::HardBreak if skip == 0 => prose.push('\n'),
            // Inline code, math or HTML stand for a word: `#` right after one
            // starts no tag.
            Event::Code(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::InlineHtml(_)
            | Event::Html(_) => prose.push('\u{FFFC}'),
            // The edges of emphasis, lists and the rest: a tag can't run across them.
            _ => {
                scan(&prose, &mut found);
                prose.clear();
            }
        }
    }
    scan(&prose, &mut found);
    found
}

/// Adds to `found` the tags written in `text`.
fn scan(text: &str, found: &mut Vec<String>) {
    let mut before: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let opens = before.is_none_or(|b| b.is_whitespace() || "([{".contains(b));
        before = Some(c);
        if c != '#' || !opens {
            continue;
        }
        let rest = &text[i + 1..];
        let len: usize = rest
            .chars()
            .take_while(|&t| t.is_alphanumeric() || "_-/".contains(t))
            .map(char::len_utf8)
            .sum();
        let tag = rest[..len].trim_end_matches(['/', '-']);
        if tag.chars().all(|t| t.is_ascii_digit() || "_-/".contains(t)) {
            continue;
        }
        if let Ok(Some(tag)) = place::tag_name(tag)
            && !found.contains(&tag)
        {
            found.push(tag);
        }
        // Go on after the tag.
        while chars.peek().is_some_and(|&(j, _)| j <= i + len) {
            before = chars.next().map(|(_, c)| c);
        }
    }
}

/// Whether `body` has a `#` where a tag could start: after a space, a line's
/// start or an opening bracket, and before a letter or digit. A save parses
/// the text for tags only then: a heading's `# ` never is one.
fn may_hold_tags(body: &str) -> bool {
    body.match_indices('#').any(|(i, _)| {
        let opens = body[..i]
            .chars()
            .next_back()
            .is_none_or(|b| b.is_whitespace() || "([{".contains(b));
        let starts = body[i + 1..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric);
        opens && starts
    })
}

/// `tags` with the inline tags of `body` added, up to the most a document has.
pub fn with_inline(mut tags: Vec<String>, body: &str) -> Vec<String> {
    if !may_hold_tags(body) {
        return tags;
    }
    for tag in inline_tags(body) {
        if tags.len() >= place::MAX_TAGS {
            break;
        }
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::{inline_tags, with_inline};

    #[test]
    fn tags_in_prose_are_found_once_and_lowercased() {
        let body = "Plans for #Garden and #project/alpha, again #garden.\n\
                    - a list item #todo\n\n(#in-brackets) and **#bold** too";
        assert_eq!(
            inline_tags(body),
            ["garden", "project/alpha", "todo", "in-brackets", "bold"]
        );
    }

    #[test]
    fn code_headings_links_numbers_and_words_are_not_tags() {
        let body = "---\ntags: [x]\nnote: \"#front\"\n---\n\
                    # Heading #not\n\n\
                    `#code` and\n\n```\n#fenced\n```\n\n\
                    [#label](https://example.org/#anchor) https://example.org/#bare \
                    C# issue #42 #2024 ## #-/ #ok-\n\n<span>#html</span> $#math$";
        assert_eq!(inline_tags(body), ["ok"]);
    }

    #[test]
    fn a_tag_ends_where_its_letters_end() {
        assert_eq!(inline_tags("#über.#next #a#b é#c"), ["über", "a"]);
        assert_eq!(inline_tags("#日本語 #x_y"), ["日本語", "x_y"]);
    }

    #[test]
    fn only_a_hash_that_could_start_a_tag_asks_for_a_parse() {
        assert!(!super::may_hold_tags(
            "# Title\n\n## Part\n\nC# and a#b, # alone"
        ));
        assert!(super::may_hold_tags("text #tag"));
        assert!(super::may_hold_tags("#tag first"));
        assert!(super::may_hold_tags("(#é)"));
    }

    #[test]
    fn inline_tags_join_the_given_ones_up_to_the_limit() {
        let given = vec!["garden".to_owned()];
        assert_eq!(
            with_inline(given.clone(), "#garden #Roses"),
            ["garden", "roses"]
        );
        let many: String = (0..40).map(|i| format!("#t{i} ")).collect();
        assert_eq!(with_inline(given, &many).len(), super::place::MAX_TAGS);
    }
}
