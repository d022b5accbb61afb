//! Text out of HTML and the XML of office files: tags dropped, a space where
//! a block or a line ends, the content of scripts and styles left out, the
//! entities quire meets read. Not a parser: a page that is not well formed
//! still gives its words.

/// Which elements end a run of words, and which hold no text worth finding.
pub struct Rules {
    pub breaks: &'static [&'static str],
    pub skipped: &'static [&'static str],
}

pub const HTML: Rules = Rules {
    breaks: &[
        "p",
        "div",
        "br",
        "li",
        "tr",
        "td",
        "th",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "section",
        "article",
        "blockquote",
        "pre",
        "hr",
        "dt",
        "dd",
        "title",
    ],
    skipped: &["script", "style", "head", "template", "noscript"],
};

/// WordprocessingML (DOCX) and OpenDocument text (ODT).
pub const OFFICE: Rules = Rules {
    breaks: &[
        "w:p",
        "w:br",
        "w:tab",
        "w:cr",
        "text:p",
        "text:h",
        "text:line-break",
        "text:tab",
        "text:s",
        "table:table-cell",
    ],
    skipped: &["w:instrText", "w:delText"],
};

/// The words of `markup`, blocks on lines of their own.
pub fn text_of(markup: &str, rules: Rules) -> String {
    let mut out = String::with_capacity(markup.len() / 2);
    let mut rest = markup;
    let mut skipping: Option<String> = None;
    while let Some(lt) = rest.find('<') {
        if skipping.is_none() {
            push_text(&mut out, &rest[..lt]);
        }
        let tag_and_on = &rest[lt + 1..];
        // Comments and CDATA end at their own markers.
        let end = if let Some(after) = tag_and_on.strip_prefix("!--") {
            after.find("-->").map(|e| e + 3 + 3)
        } else {
            tag_and_on.find('>').map(|e| e + 1)
        };
        let Some(end) = end else {
            rest = "";
            break;
        };
        let tag = &tag_and_on[..end.saturating_sub(1)];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/' && *c != '>')
            .collect();
        let lower = name.to_ascii_lowercase();
        match &skipping {
            Some(skipped) if closing && *skipped == lower => skipping = None,
            Some(_) => {}
            None if !closing
                && !tag.ends_with('/')
                && rules.skipped.iter().any(|s| s.eq_ignore_ascii_case(&name)) =>
            {
                skipping = Some(lower);
            }
            None if rules.breaks.iter().any(|b| b.eq_ignore_ascii_case(&name)) => out.push('\n'),
            None => {}
        }
        rest = &tag_and_on[end..];
    }
    if skipping.is_none() {
        push_text(&mut out, rest);
    }
    out
}

/// `text` with its entities read.
fn push_text(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let semi = after.find(';').filter(|&s| s <= 10);
        let read = semi.and_then(|s| entity(&after[..s]).map(|c| (c, s + 1)));
        match read {
            Some((c, used)) => {
                out.push(c);
                rest = &after[used..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
}

fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_gives_its_words() {
        let page = "<html><head><title>T</title><style>p{}</style></head><body>\
                    <p>Fish &amp; chips</p><script>var x = '<p>';</script><p>caf&#233;<br>two</p>\
                    <!-- hidden > still --></body>";
        let text = text_of(page, HTML);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words, ["Fish", "&", "chips", "café", "two"]);
    }

    #[test]
    fn broken_markup_still_gives_words() {
        assert_eq!(text_of("a <b unclosed", HTML).trim(), "a");
        assert_eq!(
            text_of("x &bogus; &#99999999; y", HTML),
            "x &bogus; &#99999999; y"
        );
        let office = "<w:p><w:r><w:t>Quarterly</w:t></w:r></w:p><w:p><w:t>report</w:t></w:p>";
        assert_eq!(
            text_of(office, OFFICE)
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["Quarterly", "report"]
        );
    }
}
