//! Math: `$…$` in a line, `$$…$$` on its own, and ```` ```math ```` blocks become
//! MathML when a document is saved, so browsers draw them with no script and the
//! page view stays a read of stored HTML. A formula that cannot be drawn stays
//! as its source, marked quietly, with the reason as its tooltip. The output goes
//! through the sanitiser like everything else (its MathML allow-list is here).

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Tag, TagEnd};

use super::escape::escape;

/// The MathML elements and attributes a page may hold: MathML Core's layout,
/// never links, styles or `annotation-xml` (which can switch back to HTML).
pub(super) const TAGS: &[&str] = &[
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mmultiscripts",
    "mprescripts",
    "none",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
    "mtable",
    "mtr",
    "mtd",
];

pub(super) const ATTRIBUTES: &[&str] = &[
    "display",
    "mathvariant",
    "displaystyle",
    "scriptlevel",
    "stretchy",
    "fence",
    "separator",
    "symmetric",
    "largeop",
    "movablelimits",
    "form",
    "lspace",
    "rspace",
    "minsize",
    "maxsize",
    "accent",
    "accentunder",
    "linethickness",
    "columnalign",
    "rowalign",
    "columnspan",
    "rowspan",
    "width",
    "height",
    "depth",
    "voffset",
    "notation",
    "encoding",
];

/// The class of a formula shown as its source because it could not be drawn.
pub(super) const ERROR_CLASS: &str = "math-error";

/// A formula's parse nests at most once per brace, command or script mark;
/// beyond this many of them it is shown as source (its parser is recursive).
const MAX_NESTING_MARKS: usize = 1_000;
/// The drawing runs on a thread with this much stack: at `MAX_NESTING_MARKS`
/// levels an unoptimised build uses about a fifth of it.
const STACK_BYTES: usize = 96 << 20;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Inline,
    Display,
    Block,
}

/// Replaces every formula in `events` by its MathML (or its marked source).
pub(super) fn make(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut formulas: Vec<(String, Kind)> = Vec::new();
    let mut in_block: Option<String> = None;
    for event in &events {
        match (&mut in_block, event) {
            (None, Event::InlineMath(s)) => formulas.push((s.to_string(), Kind::Inline)),
            (None, Event::DisplayMath(s)) => formulas.push((s.to_string(), Kind::Display)),
            (None, Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))) if is_math(info) => {
                in_block = Some(String::new());
            }
            (Some(text), Event::Text(t)) => text.push_str(t),
            (Some(_), Event::End(TagEnd::CodeBlock)) => {
                formulas.extend(in_block.take().map(|t| (t, Kind::Block)));
            }
            _ => {}
        }
    }
    if formulas.is_empty() {
        return events;
    }
    let mut drawn = draw_all(&formulas).into_iter();
    let mut out = Vec::with_capacity(events.len());
    let mut skipping = false;
    for event in events {
        match event {
            Event::InlineMath(_) | Event::DisplayMath(_) => {
                out.push(Event::InlineHtml(CowStr::from(
                    drawn.next().unwrap_or_default(),
                )));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info))) if is_math(info) => {
                skipping = true;
                out.push(Event::Html(CowStr::from(drawn.next().unwrap_or_default())));
            }
            Event::End(TagEnd::CodeBlock) if skipping => skipping = false,
            _ if skipping => {}
            other => out.push(other),
        }
    }
    out
}

fn is_math(info: &str) -> bool {
    info.split_whitespace()
        .next()
        .is_some_and(|lang| lang.eq_ignore_ascii_case("math"))
}

/// Draws every formula on one thread with room for deep formulas; a formula
/// that fails (or a parser that panics) comes back as its marked source.
fn draw_all(formulas: &[(String, Kind)]) -> Vec<String> {
    let drawn = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("quire-math".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let config = math_core::MathCoreConfig::default();
                let converter =
                    math_core::LatexToMathML::new(config).map_err(|e| e.0.error_message());
                formulas
                    .iter()
                    .map(|(source, kind)| match &converter {
                        Ok(c) => draw(c, source, *kind),
                        Err(why) => marked(source, *kind, why),
                    })
                    .collect::<Vec<_>>()
            });
        worker.ok().and_then(|w| w.join().ok())
    });
    drawn.unwrap_or_else(|| {
        formulas
            .iter()
            .map(|(source, kind)| marked(source, *kind, "this formula could not be drawn"))
            .collect()
    })
}

fn draw(converter: &math_core::LatexToMathML, source: &str, kind: Kind) -> String {
    let marks = source
        .bytes()
        .filter(|b| matches!(b, b'{' | b'\\' | b'^' | b'_'))
        .count();
    if marks > MAX_NESTING_MARKS {
        return marked(source, kind, "this formula is too deeply built to draw");
    }
    let display = match kind {
        Kind::Inline => math_core::MathDisplay::Inline,
        Kind::Display | Kind::Block => math_core::MathDisplay::Block,
    };
    match converter.convert_with_local_state(source, display) {
        Ok(result) => result.mathml,
        Err(e) => marked(source, kind, &e.error_message()),
    }
}

/// The formula's source, as written, in a quiet mark whose tooltip says why.
fn marked(source: &str, kind: Kind, why: &str) -> String {
    let why = escape(&format!("Not drawn: {why}"));
    let text = escape(source);
    match kind {
        Kind::Inline => format!(r#"<code class="{ERROR_CLASS}" title="{why}">${text}$</code>"#),
        Kind::Display => {
            format!(r#"<code class="{ERROR_CLASS}" title="{why}">$${text}$$</code>"#)
        }
        Kind::Block => {
            format!("<pre class=\"{ERROR_CLASS}\" title=\"{why}\"><code>{text}</code></pre>\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::documents::render_markdown;

    #[test]
    fn inline_display_and_fenced_math_become_mathml() {
        let html =
            render_markdown("Area $x^2$ here.\n\n$$\\frac{1}{2}$$\n\n```math\n\\sqrt{y}\n```\n");
        assert!(
            html.contains("Area <math><msup><mi>x</mi><mn>2</mn></msup></math> here."),
            "{html}"
        );
        assert!(
            html.contains(r#"<math display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<math display="block"><msqrt><mi>y</mi></msqrt></math>"#),
            "{html}"
        );
        assert!(!html.contains("<pre"), "{html}");
    }

    #[test]
    fn a_formula_that_does_not_parse_stays_as_its_source_with_a_quiet_mark() {
        let html = render_markdown("See $\\nosuchcommand{x}$ and\n\n```math\n\\frac{1}{\n```\n");
        assert!(
            html.contains(r#"<code class="math-error" title="Not drawn: "#),
            "{html}"
        );
        assert!(html.contains(r#"$\nosuchcommand{x}$</code>"#), "{html}");
        let missing = render_markdown("Broken: $\\frac{1}$ and $\\nosuch{x}$.");
        assert_eq!(
            missing.matches(r#"class="math-error""#).count(),
            2,
            "{missing}"
        );
        assert!(missing.contains(r#">$\frac{1}$</code>"#), "{missing}");
        assert!(
            html.contains(r#"<pre class="math-error" title="Not drawn: "#)
                && html.contains("<code>\\frac{1}{\n</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn a_formula_nested_past_reason_is_refused_not_a_crash() {
        let deep = format!("${}x{}$", "{".repeat(20_000), "}".repeat(20_000));
        let html = render_markdown(&deep);
        assert!(html.contains(r#"class="math-error""#));
        let chain = format!("${}x$", "\\frac 1".repeat(900));
        assert!(render_markdown(&chain).contains("<mfrac>"));
    }

    #[test]
    fn prices_code_and_escaped_dollars_stay_text() {
        let html = render_markdown("It costs $5 and $10.\n\n`$x$` and \\$y\\$\n");
        assert!(!html.contains("<math"), "{html}");
        assert!(html.contains("<code>$x$</code>"), "{html}");
    }

    #[test]
    fn math_carries_no_script_style_or_link() {
        for source in [
            "$\\text{<script>alert(1)</script>}$",
            "$\\color{red}{x}$",
            "<math><mtext><style><img src=x onerror=alert(1)></style></mtext></math>",
            "<math href=\"javascript:alert(1)\"><mi xlink:href=\"javascript:alert(2)\">x</mi></math>",
            "<math><annotation-xml encoding=\"text/html\"><img src=x onerror=alert(1)></annotation-xml></math>",
            "<math><mi style=\"color:red\" onclick=\"alert(1)\">x</mi></math>",
            "$x$<svg><script>alert(1)</script></svg>",
            "$\\text{\" onmouseover=\"alert(1)}$",
        ] {
            let html = render_markdown(source);
            for bad in [
                "<script",
                "onerror",
                "onclick",
                "onmouseover=\"",
                "style=",
                "href",
                "<svg",
                "<img",
            ] {
                assert!(!html.contains(bad), "{source} gave {html}");
            }
        }
    }
}
