//! Callouts: GitHub's alerts (`> [!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
//! `[!WARNING]`, `[!CAUTION]`) and Obsidian's (`> [!info] Title`, folded with
//! `-` or open with `+` as `<details>`), turned from block quotes into boxes
//! with a title. Both are read here, the same way (the parser's own alerts
//! would drop a title written after the kind). The box is plain HTML the sanitiser keeps (known classes
//! only); the title is the writer's text, escaped.

use pulldown_cmark::{BlockQuoteKind, CowStr, Event, Tag, TagEnd};

use super::escape::escape;

/// The kinds that have a colour of their own; any other word is a plain box.
pub const KINDS: [&str; 13] = [
    "note",
    "tip",
    "important",
    "warning",
    "caution",
    "info",
    "todo",
    "success",
    "question",
    "failure",
    "danger",
    "bug",
    "example",
];

/// The classes a callout's box may have: `callout` and one per kind.
pub const CLASSES: &[&str] = &[
    "callout",
    "callout-note",
    "callout-tip",
    "callout-important",
    "callout-warning",
    "callout-caution",
    "callout-info",
    "callout-todo",
    "callout-success",
    "callout-question",
    "callout-failure",
    "callout-danger",
    "callout-bug",
    "callout-example",
];

/// How a callout's block quote closes.
enum Close {
    Quote,
    Div,
    Details,
}

/// `events` with every callout's block quote made a box.
pub fn make(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    let mut open: Vec<Close> = Vec::new();
    let mut rest = events.into_iter().peekable();
    while let Some(event) = rest.next() {
        match event {
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                let kind = github(kind);
                out.push(html(open_box(kind, &capitalised(kind), None)));
                open.push(Close::Div);
            }
            Event::Start(Tag::BlockQuote(None)) => {
                let (head, line) = first_line(&mut rest);
                match head.as_deref().and_then(obsidian) {
                    Some((kind, fold, title)) => {
                        let title = title.unwrap_or_else(|| capitalised(&kind));
                        out.push(html(open_box(&kind, &title, fold)));
                        open.push(if fold.is_some() {
                            Close::Details
                        } else {
                            Close::Div
                        });
                        out.extend(line.after_title);
                    }
                    None => {
                        out.push(Event::Start(Tag::BlockQuote(None)));
                        open.push(Close::Quote);
                        out.extend(line.all);
                    }
                }
            }
            Event::End(TagEnd::BlockQuote(kind)) => match open.pop() {
                Some(Close::Div) => out.push(html("</div>".into())),
                Some(Close::Details) => out.push(html("</details>".into())),
                _ => out.push(Event::End(TagEnd::BlockQuote(kind))),
            },
            other => out.push(other),
        }
    }
    out
}

fn html(s: String) -> Event<'static> {
    Event::Html(CowStr::from(s))
}

fn github(kind: BlockQuoteKind) -> &'static str {
    match kind {
        BlockQuoteKind::Note => "note",
        BlockQuoteKind::Tip => "tip",
        BlockQuoteKind::Important => "important",
        BlockQuoteKind::Warning => "warning",
        BlockQuoteKind::Caution => "caution",
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The opening of a box of `kind` titled `title`; `fold`: folded (`Some(false)`)
/// or open (`Some(true)`) details, `None` a box that does not fold.
fn open_box(kind: &str, title: &str, fold: Option<bool>) -> String {
    let class = if KINDS.contains(&kind) {
        format!("callout callout-{kind}")
    } else {
        "callout".into()
    };
    let title = escape(title);
    match fold {
        None => format!(r#"<div class="{class}"><p class="callout-title">{title}</p>"#),
        Some(open) => format!(
            r#"<details class="{class}"{}><summary class="callout-title">{title}</summary>"#,
            if open { " open" } else { "" }
        ),
    }
}

/// A block quote's first line, read ahead: its text when the quote starts with
/// a paragraph of plain text, and the events to put back either way.
struct Line<'a> {
    all: Vec<Event<'a>>,
    /// What follows the title line: the paragraph's rest, reopened.
    after_title: Vec<Event<'a>>,
}

fn first_line<'a>(
    rest: &mut std::iter::Peekable<impl Iterator<Item = Event<'a>>>,
) -> (Option<String>, Line<'a>) {
    let mut all = Vec::new();
    if !matches!(rest.peek(), Some(Event::Start(Tag::Paragraph))) {
        return (
            None,
            Line {
                all,
                after_title: Vec::new(),
            },
        );
    }
    all.extend(rest.next());
    let mut text = String::new();
    while let Some(Event::Text(t)) = rest.peek() {
        text.push_str(t);
        all.extend(rest.next());
    }
    // The title line ends at a line break or with the paragraph.
    let mut after_title = Vec::new();
    match rest.peek() {
        Some(Event::SoftBreak | Event::HardBreak) => {
            all.extend(rest.next());
            after_title.push(Event::Start(Tag::Paragraph));
        }
        Some(Event::End(TagEnd::Paragraph)) => {
            all.extend(rest.next());
        }
        _ => {
            // Inline markup on the title line: the line stays text, the box
            // gets no title of its own (kept as written).
            after_title.push(Event::Start(Tag::Paragraph));
            let title_end = text.find(']').map_or(0, |i| i + 1);
            let tail = text[title_end..].trim_start_matches(['-', '+']).to_owned();
            if !tail.is_empty() {
                after_title.push(Event::Text(CowStr::from(tail)));
            }
            return (
                Some(text.chars().take(title_end).collect()),
                Line { all, after_title },
            );
        }
    }
    (Some(text), Line { all, after_title })
}

/// `[!kind]`, then `-` (folded) or `+` (open), then a title: the kind in
/// lower case, the fold, and the title when one is written.
fn obsidian(line: &str) -> Option<(String, Option<bool>, Option<String>)> {
    let rest = line.trim_start().strip_prefix("[!")?;
    let (kind, rest) = rest.split_once(']')?;
    let valid = !kind.is_empty()
        && kind.len() <= 32
        && kind
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return None;
    }
    let (fold, rest) = match rest.chars().next() {
        Some('-') => (Some(false), &rest[1..]),
        Some('+') => (Some(true), &rest[1..]),
        _ => (None, rest),
    };
    let title = rest.trim();
    Some((
        kind.to_ascii_lowercase(),
        fold,
        (!title.is_empty()).then(|| title.to_owned()),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::render::render_markdown as html;

    #[test]
    fn github_alerts_are_boxes_with_their_kind_as_title() {
        let out = html("> [!WARNING]\n> Back up first.");
        assert!(
            out.contains(
                r#"<div class="callout callout-warning"><p class="callout-title">Warning</p>"#
            ),
            "{out}"
        );
        assert!(
            out.contains("<p>Back up first.</p>") && !out.contains("blockquote"),
            "{out}"
        );
    }

    #[test]
    fn obsidian_callouts_take_a_title_and_fold() {
        let out = html("> [!info] Read this first\n> The body.");
        assert!(
            out.contains(
                r#"<div class="callout callout-info"><p class="callout-title">Read this first</p>"#
            ),
            "{out}"
        );
        assert!(out.contains("<p>The body.</p>\n</div>"), "{out}");
        let out = html("> [!NOTE] Mind the gap\n> Body.");
        assert!(
            out.contains(r#"<p class="callout-title">Mind the gap</p>"#),
            "{out}"
        );
        let out = html("> [!tip]- Folded away\n> Hidden text.");
        assert!(
            out.contains(r#"<details class="callout callout-tip"><summary class="callout-title">Folded away</summary>"#),
            "{out}"
        );
        let out = html("> [!example]+\n> Open.");
        assert!(
            out.contains(r#"<details class="callout callout-example" open=""#),
            "{out}"
        );
        // A kind with no colour of its own is a plain box, titled as written.
        let out = html("> [!Recipe] Soup\n> Boil.");
        assert!(
            out.contains(r#"<div class="callout"><p class="callout-title">Soup</p>"#),
            "{out}"
        );
        // A quote that is no callout stays a quote.
        let out = html("> [not one] at all\n> - x");
        assert!(
            out.contains("<blockquote>") && !out.contains("callout"),
            "{out}"
        );
    }

    #[test]
    fn a_callout_title_or_class_written_to_attack_is_inert() {
        let out = html("> [!note] <script>alert(1)</script> \" onclick=\"x\n> b");
        // Shown as text, never as markup.
        let in_a_tag = |attr: &str| {
            out.split('<')
                .skip(1)
                .any(|tag| tag.split('>').next().is_some_and(|t| t.contains(attr)))
        };
        assert!(!out.contains("<script") && !in_a_tag("onclick"), "{out}");
        let out = html(r#"<div class="callout-note evil" style="color:red" onclick="x">t</div>"#);
        assert!(
            !out.contains("evil") && !out.contains("style=") && !out.contains("onclick"),
            "{out}"
        );
        let out = html("> [!x\"y] t\n> b");
        assert!(!out.contains("callout"), "{out}");
    }
}
