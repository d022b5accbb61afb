//! Footnotes: `[^label]` in the text and `[^label]: note` anywhere in it. A
//! label is any text the writer chose; the page names each note `fn-N` instead
//! (N in the order the labels first appear), so its reference's link and the
//! note's id are quire's own: the sanitiser keeps the id (prefixed, as every id
//! is) and `link` points the reference at it.

use pulldown_cmark::{CowStr, Event, Tag};

/// The classes the sanitiser keeps on footnotes' elements.
pub(super) const CLASSES: &[&str] = &[
    "footnote-reference",
    "footnote-definition",
    "footnote-definition-label",
];

/// `events` with each footnote's label replaced by its `fn-N` name.
pub(super) fn name(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut labels: Vec<String> = Vec::new();
    let mut named = |label: &str| -> CowStr<'static> {
        let key = label.to_lowercase();
        let n = match labels.iter().position(|l| *l == key) {
            Some(i) => i + 1,
            None => {
                labels.push(key);
                labels.len()
            }
        };
        CowStr::from(format!("fn-{n}"))
    };
    events
        .into_iter()
        .map(|e| match e {
            Event::FootnoteReference(label) => Event::FootnoteReference(named(&label)),
            Event::Start(Tag::FootnoteDefinition(label)) => {
                Event::Start(Tag::FootnoteDefinition(named(&label)))
            }
            other => other,
        })
        .collect()
}

/// The sanitised page with each reference's link pointing at its note's id,
/// which the sanitiser prefixed.
pub(super) fn link(clean: String) -> String {
    if !clean.contains("href=\"#fn-") {
        return clean;
    }
    clean.replace(
        "href=\"#fn-",
        &format!("href=\"#{}fn-", super::headings::ID_PREFIX),
    )
}

#[cfg(test)]
mod tests {
    use super::super::render::render_markdown;

    #[test]
    fn footnotes_link_to_their_notes_whatever_their_labels() {
        let html = render_markdown(
            "One[^a<b>] and two[^Two] and one again[^A<B>].\n\n[^a<b>]: First <script>x</script>\n[^two]: Second",
        );
        assert_eq!(html.matches(r##"href="#h-fn-1""##).count(), 2, "{html}");
        assert!(html.contains(r##"href="#h-fn-2""##), "{html}");
        assert!(
            html.contains(r#"<div class="footnote-definition" id="h-fn-1">"#),
            "{html}"
        );
        assert!(html.contains(r#"id="h-fn-2""#), "{html}");
        assert!(
            !html.contains("<script") && !html.contains("a<b>"),
            "{html}"
        );
    }
}
