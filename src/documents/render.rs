//! Markdown to safe HTML. Runs once per save, never per page view: sanitising costs
//! far more than reading the stored result.

use std::sync::OnceLock;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd, html};

use super::{headings, highlight};

/// Bump when the output for the same source changes, so stored HTML can be redone.
/// 2: `<input>` written in the text is removed; only task-list boxes remain.
/// 3: a task-list box is labelled by its item's text.
/// 4: headings have ids and links to themselves; a table of contents from three.
/// 5: fenced code in a known language is highlighted (classes only).
/// 6: `[[Title]]` and `[[Title|label]]` are links between documents.
/// 7: an image naming a file (`![](photo.png)`, `![[photo.png]]`) shows the
///    document's file of that name.
/// 8: a file's name with `.` or `..` parts is one part of its address, so
///    browsers do not resolve the dots away.
/// 9: callouts, `==highlights==`, definition lists, bare addresses as links,
///    front matter left out of the page, and `[[Title#Heading]]` to a heading.
/// 10: math (`$…$`, `$$…$$`, ```` ```math ````) as MathML.
/// 11: the front matter's `aliases` stored with the page (links reach the
///     document by them); footnotes' references link to their notes.
pub const RENDER_VERSION: i64 = 11;

/// The Markdown quire speaks; finding the n-th task parses with the same.
pub(super) const OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_WIKILINKS)
    .union(Options::ENABLE_DEFINITION_LIST)
    .union(Options::ENABLE_YAML_STYLE_METADATA_BLOCKS)
    .union(Options::ENABLE_MATH);

/// A text's page where no document is known (a new document's preview): an
/// image naming a file keeps its source as written.
pub fn render_markdown(source: &str) -> String {
    render_page(source, None)
}

/// The page of document `doc_id`'s text: an image naming a file (a source
/// without a scheme or a leading `/`) shows the document's file of that name.
pub fn render_page(source: &str, doc_id: Option<&str>) -> String {
    // Task-list boxes leave the parser as marks the writer cannot guess (fresh for
    // every render), one before the item's text and one after it, and come back
    // after sanitising as a checkbox labelled by that text. Sanitising removes
    // every `<input>` and `<label>` the text itself contains.
    let mark = task_mark();
    let (done, todo, end) = (
        format!("{mark}x\u{E000}"),
        format!("{mark}o\u{E000}"),
        format!("{mark}e\u{E000}"),
    );
    let mut in_task = false;
    let parsed: Vec<Event> = Parser::new_ext(source, OPTIONS)
        .map(|e| match (e, doc_id) {
            (
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }),
                Some(doc),
            ) => {
                let dest_url = match super::attachments::local_name(&dest_url) {
                    Some(name) => CowStr::from(super::attachments::url(doc, &name)),
                    None => dest_url,
                };
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            (e, _) => e,
        })
        .collect();
    let parsed = super::inline_marks::make(super::callouts::make(super::math::make(parsed)));
    let parsed = super::footnotes::name(parsed);
    // Fenced code leaves as a mark too, and comes back highlighted.
    let (mut parsed, blocks) = set_code_aside(parsed, &mark);
    let headings = headings::name(&mut parsed);
    // Links between documents leave as marks too (see `links`).
    let (parsed, targets) = super::links::set_aside(parsed, &mark);
    let events = parsed.into_iter().flat_map(|e| {
        let close = in_task && ends_task_text(&e);
        if close {
            in_task = false;
        }
        let e = match e {
            Event::TaskListMarker(checked) => {
                in_task = true;
                Event::Text(CowStr::from(if checked {
                    done.clone()
                } else {
                    todo.clone()
                }))
            }
            other => other,
        };
        let closing = close.then(|| Event::Text(CowStr::from(end.clone())));
        closing.into_iter().chain(std::iter::once(e))
    });
    let mut unsafe_html = String::with_capacity(source.len() + source.len() / 4);
    html::push_html(&mut unsafe_html, events);
    let clean = sanitizer().clean(&unsafe_html).to_string();
    let clean = headings::link(clean, &headings);
    let clean = super::footnotes::link(clean);
    let clean = match headings::contents(&headings) {
        Some(toc) => toc + &clean,
        None => clean,
    };
    if !clean.contains(&mark) {
        return clean;
    }
    let mut clean = super::links::put_back(clean, &mark, &targets);
    for (i, (code, lang)) in blocks.iter().enumerate() {
        let placed = format!("<pre><code>{}</code></pre>", code_mark(&mark, i));
        clean = clean.replacen(&placed, &highlight::block(code, lang.as_deref()), 1);
    }
    clean
        .replace(
            &done,
            r#"<label class="task"><input type="checkbox" disabled checked> "#,
        )
        .replace(
            &todo,
            r#"<label class="task"><input type="checkbox" disabled> "#,
        )
        .replace(&end, "</label>")
}

/// A body's page, rendered and compressed for storing, before the writer is taken.
pub(super) struct RenderedPage {
    pub html: String,
    pub packed: crate::db::documents::PackedHtml,
}

impl RenderedPage {
    /// `id`: the document's, when it has one (its files' images point there).
    pub fn render(body: &str, id: Option<&str>) -> Result<Self, super::DocError> {
        let html = render_page(body, id);
        let packed = crate::db::documents::PackedHtml::pack(&html)?
            .with_aliases(&super::front_matter::aliases(body));
        Ok(Self { html, packed })
    }
}

fn code_mark(mark: &str, i: usize) -> String {
    format!("{mark}c{i}\u{E000}")
}

/// Takes each fenced code block out of `events`, leaving a plain block holding
/// only its mark; returns the blocks' code and language, in order.
#[allow(clippy::type_complexity)]
fn set_code_aside<'a>(
    events: Vec<Event<'a>>,
    mark: &str,
) -> (Vec<Event<'a>>, Vec<(String, Option<String>)>) {
    let mut out = Vec::with_capacity(events.len());
    let mut blocks = Vec::new();
    let mut open: Option<(String, Option<String>)> = None;
    for event in events {
        match (&mut open, event) {
            (None, Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))) => {
                open = Some((String::new(), highlight::language(&info)));
            }
            (Some((code, _)), Event::Text(text)) => code.push_str(&text),
            (Some(_), Event::End(TagEnd::CodeBlock)) => {
                let i = blocks.len();
                blocks.extend(open.take());
                out.push(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)));
                out.push(Event::Text(CowStr::from(code_mark(mark, i))));
                out.push(Event::End(TagEnd::CodeBlock));
            }
            (Some(_), _) => {}
            (None, other) => out.push(other),
        }
    }
    (out, blocks)
}

/// A task's label holds its item's first run of text: it ends where a block
/// starts or ends (the paragraph, the item, a nested list).
fn ends_task_text(event: &Event) -> bool {
    match event {
        Event::Start(tag) => !matches!(
            tag,
            Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::Superscript
                | Tag::Subscript
        ),
        Event::End(tag) => !matches!(
            tag,
            TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image
                | TagEnd::Superscript
                | TagEnd::Subscript
        ),
        Event::Html(_) | Event::Rule | Event::DisplayMath(_) => true,
        _ => false,
    }
}

fn task_mark() -> String {
    let mut bytes = [0u8; 12];
    // Without randomness the mark is still one no text is likely to hold.
    let _ = getrandom::fill(&mut bytes);
    let hex = crate::transfer::hex(&bytes);
    format!("\u{E000}quire-task-{hex}-")
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.link_rel(Some("noopener noreferrer nofollow"));
        for tag in ["h1", "h2", "h3", "h4", "h5", "h6"] {
            b.add_tag_attributes(tag, &["id"]);
        }
        b.id_prefix(Some(headings::ID_PREFIX));
        // Callouts: their boxes and titles, in the colours of known kinds.
        b.add_allowed_classes("div", super::callouts::CLASSES);
        b.add_allowed_classes("details", super::callouts::CLASSES);
        b.add_allowed_classes("p", &["callout-title"]);
        b.add_allowed_classes("summary", &["callout-title"]);
        b.add_tag_attributes("details", &["open"]);
        // Math: MathML's layout elements only (no links, styles or HTML inside).
        b.add_tags(super::math::TAGS);
        for tag in super::math::TAGS {
            b.add_tag_attributes(tag, super::math::ATTRIBUTES);
        }
        b.add_allowed_classes("code", &[super::math::ERROR_CLASS]);
        b.add_allowed_classes("pre", &[super::math::ERROR_CLASS]);
        // Footnotes: a note's id (prefixed like every id) for its reference's link.
        b.add_allowed_classes("sup", super::footnotes::CLASSES);
        b.add_allowed_classes("div", super::footnotes::CLASSES);
        b.add_tag_attributes("div", &["id"]);
        b
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_html() {
        let html = render_markdown("# Title\n\nSome *text* and a [link](https://example.org).");
        assert!(html.contains(r#"<h1 id="h-title">Title<a class="anchor""#));
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
    fn a_task_box_is_labelled_by_its_items_text() {
        let html = render_markdown("- [x] done *well*\n- [ ] todo");
        assert!(
            html.contains(
                r#"<li><label class="task"><input type="checkbox" disabled checked> done <em>well</em></label></li>"#
            ),
            "{html}"
        );
        assert!(
            html.contains(
                r#"<li><label class="task"><input type="checkbox" disabled> todo</label></li>"#
            ),
            "{html}"
        );
    }

    #[test]
    fn a_task_label_ends_with_its_first_paragraph_or_before_a_nested_list() {
        let loose = render_markdown("- [ ] first\n\n  more text\n\n- [x] second\n");
        assert!(
            loose.contains(
                r#"<p><label class="task"><input type="checkbox" disabled> first</label></p>"#
            ),
            "{loose}"
        );
        assert!(loose.contains("<p>more text</p>"), "{loose}");
        let nested = render_markdown("- [ ] parent\n  - [x] child\n");
        assert!(
            nested
                .contains(r#"<label class="task"><input type="checkbox" disabled> parent</label>"#)
                && nested.contains(
                    r#"<label class="task"><input type="checkbox" disabled checked> child</label>"#
                ),
            "{nested}"
        );
        assert_eq!(
            nested.matches("<label").count(),
            nested.matches("</label>").count()
        );
    }

    #[test]
    fn labels_written_in_the_text_are_removed() {
        let html = render_markdown("<label for=x>fake</label> and - [ ] not a task");
        assert!(!html.contains("<label"), "{html}");
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

    #[test]
    fn headings_get_ids_links_and_from_three_a_table_of_contents() {
        let html = render_markdown("# Plan\n\n## Why <b>now</b>\n\n## Why <b>now</b>\n\ntext");
        assert!(
            html.contains(r##"<h1 id="h-plan">Plan<a class="anchor" href="#h-plan""##),
            "{html}"
        );
        assert!(html.contains(r#"<h2 id="h-why-now">"#), "{html}");
        assert!(html.contains(r#"<h2 id="h-why-now-2">"#), "{html}");
        assert!(
            html.starts_with(r#"<nav class="toc" aria-label="Contents">"#),
            "{html}"
        );
        assert!(
            html.contains(r##"<li class="toc-1"><a href="#h-why-now-2">Why now</a></li>"##),
            "{html}"
        );
        let short = render_markdown("# One\n\n## Two");
        assert!(!short.contains("toc"), "{short}");
    }

    #[test]
    fn ids_written_in_the_text_are_prefixed_and_heading_text_is_escaped_in_the_contents() {
        let html = render_markdown("<h2 id=\"main\">x</h2>\n\n# a &lt;script&gt;\n\n# b\n\n# c");
        assert!(html.contains(r#"id="h-main""#), "{html}");
        assert!(!html.contains(r#"id="main""#), "{html}");
        assert!(
            html.contains("<a href=\"#h-a-script\">a &lt;script&gt;</a>"),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
    }

    #[test]
    fn fenced_code_is_highlighted_in_place_and_stays_inert() {
        let html = render_markdown(
            "intro\n\n```rust\nlet x = \"<script>\";\n```\n\n- item\n\n  ```\n  <img src=x onerror=alert(1)>\n  ```\n",
        );
        assert!(
            html.contains(r#"<pre class="hl"><code class="language-rust">"#),
            "{html}"
        );
        assert!(
            html.contains("&lt;script&gt;") && !html.contains("<script"),
            "{html}"
        );
        assert!(
            html.contains("<pre><code>&lt;img src=x onerror=alert(1)&gt;\n</code></pre>"),
            "{html}"
        );
        assert!(!html.contains("quire-task"), "no mark is left: {html}");
    }
}
