//! The words of a search as a query: terms that must each hold (`tomato basil`),
//! alternatives (`tomato OR basil`), terms that must not (`-tomato`,
//! `-"red fox"`), words looked for in titles only (`title:plan`). Every input
//! is a query: what is not an operator is words to look for, and operators are
//! only ever turned into quire's own syntax by the engines' translators.

use super::cjk;

/// Longest query looked at; the rest is ignored rather than refused.
const MAX_QUERY_BYTES: usize = 512;
/// Most terms (wanted, alternative and unwanted together) looked for.
const MAX_TERMS: usize = 16;

/// One thing to look for: a word, or words in order (a phrase).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Term {
    /// Lower-case words of letters and digits.
    pub words: Vec<String>,
    /// Quoted: the words in this order, each exactly as typed.
    pub phrase: bool,
    /// In the title only (`title:`).
    pub title: bool,
    /// The last word typed: it may be the start of a longer word.
    pub prefix: bool,
}

/// A search's terms: every clause holds (one of its terms, each), none of
/// `none` does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Query {
    pub all: Vec<Vec<Term>>,
    pub none: Vec<Term>,
}

impl Query {
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Each clause's single term, when no clause has alternatives and none
    /// looks in titles only: the shape the parts-of-words passes take.
    pub fn plain(&self) -> Option<Vec<&Term>> {
        self.all
            .iter()
            .map(|c| match c.as_slice() {
                [t] if !t.title => Some(t),
                _ => None,
            })
            .collect()
    }

    /// What a document must not match, as a query of its own: one clause of
    /// every unwanted term.
    pub fn unwanted(&self) -> Query {
        Query {
            all: [self.none.clone()]
                .into_iter()
                .filter(|c| !c.is_empty())
                .collect(),
            none: Vec::new(),
        }
    }

    /// Every wanted term, clause by clause.
    pub fn wanted(&self) -> impl Iterator<Item = &Term> {
        self.all.iter().flatten()
    }
}

/// One piece of input: the words of a quoted or unquoted chunk, with its marks.
struct Token<'a> {
    text: &'a str,
    quoted: bool,
    not: bool,
    title: bool,
}

/// The input cut at white space outside quotes; `-` and `title:` read off the
/// front of a chunk. An unclosed quote runs to the end.
fn tokens(input: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let mut not = false;
        let mut title = false;
        let mut chunk = rest;
        if let Some(after) = chunk.strip_prefix('-')
            && after.starts_with(|c: char| c == '"' || c.is_alphanumeric())
        {
            not = true;
            chunk = after;
        }
        if chunk
            .get(..6)
            .is_some_and(|s| s.eq_ignore_ascii_case("title:"))
            && chunk[6..].starts_with(|c: char| c == '"' || c.is_alphanumeric())
        {
            title = true;
            chunk = &chunk[6..];
        }
        let (text, quoted, used) = match chunk.strip_prefix('"') {
            Some(inside) => match inside.find('"') {
                Some(end) => (&inside[..end], true, end + 2),
                None => (inside, true, inside.len() + 1),
            },
            None => {
                let end = chunk
                    .find(|c: char| c.is_whitespace() || c == '"')
                    .unwrap_or(chunk.len());
                (&chunk[..end], false, end.max(1))
            }
        };
        out.push(Token {
            text,
            quoted,
            not,
            title,
        });
        let consumed = rest.len() - chunk.len() + used.min(chunk.len());
        rest = &rest[consumed..];
    }
    out
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The query `input` asks for.
pub(super) fn parse(input: &str) -> Query {
    let mut end = input.len().min(MAX_QUERY_BYTES);
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    let mut q = Query::default();
    let mut count = 0;
    let mut or_next = false;
    let mut last_plain: Option<(usize, usize)> = None;
    for token in tokens(&input[..end]) {
        // `OR` between two wanted terms joins them; anywhere else it is a word.
        if token.text == "OR" && !token.quoted && !token.not && !token.title && !q.all.is_empty() {
            or_next = true;
            continue;
        }
        let ws = words(token.text);
        if ws.is_empty() {
            continue;
        }
        // A quoted chunk is one phrase; so is an unwanted chunk such as
        // `-ready-made` (its words together are what is not wanted).
        let terms: Vec<Term> = if token.quoted || token.not {
            vec![Term {
                words: ws,
                phrase: true,
                title: token.title,
                prefix: false,
            }]
        } else {
            ws.into_iter()
                .map(|w| Term {
                    words: vec![w],
                    phrase: false,
                    title: token.title,
                    prefix: false,
                })
                .collect()
        };
        last_plain = None;
        for term in terms {
            if count == MAX_TERMS {
                break;
            }
            count += 1;
            if token.not {
                q.none.push(term);
            } else if std::mem::take(&mut or_next)
                && let Some(clause) = q.all.last_mut()
            {
                clause.push(term);
                let at = clause.len() - 1;
                last_plain = Some((q.all.len() - 1, at));
            } else {
                q.all.push(vec![term]);
                last_plain = Some((q.all.len() - 1, 0));
            }
        }
        if token.quoted || token.not {
            last_plain = None;
        }
        or_next = false;
    }
    if let Some((c, t)) = last_plain
        && let Some(term) = q.all.get_mut(c).and_then(|c| c.get_mut(t))
    {
        term.prefix = true;
    }
    q
}

/// Splits a token at script boundaries: ("windows", false), ("版", true).
pub(super) fn script_runs(word: &str) -> Vec<(String, bool)> {
    let mut runs: Vec<(String, bool)> = Vec::new();
    for c in word.chars() {
        let k = cjk::is_cjk(c);
        match runs.last_mut() {
            Some((s, kind)) if *kind == k => s.push(c),
            _ => runs.push((c.to_string(), k)),
        }
    }
    runs
}

/// What a term asks for, whatever the engine: runs of CJK characters (matched
/// by their neighbouring pairs) and words in order, each maybe a prefix.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unit {
    Cjk { grams: Vec<String>, prefix: bool },
    Words { words: Vec<String>, prefix: bool },
}

impl Term {
    /// The term's CJK runs, then its other words as one unit; a prefix term's
    /// words are a prefix, as is a lone CJK character.
    pub fn units(&self) -> Vec<Unit> {
        let mut out = Vec::new();
        let mut latin = Vec::new();
        for w in &self.words {
            for (run, is_cjk) in script_runs(w) {
                if is_cjk {
                    let prefix = run.chars().count() == 1;
                    let grams = cjk::bigrams(&run);
                    out.push(Unit::Cjk { grams, prefix });
                } else {
                    latin.push(run);
                }
            }
        }
        if !latin.is_empty() {
            out.push(Unit::Words {
                words: latin,
                prefix: self.prefix,
            });
        }
        out
    }

    /// Whether the term holds CJK characters.
    pub fn has_cjk(&self) -> bool {
        self.words.iter().any(|w| w.chars().any(cjk::is_cjk))
    }
}

/// The words to mark in snippets: each wanted term's words, one per script run.
pub(super) fn needles(q: &Query) -> Vec<String> {
    q.wanted()
        .flat_map(|t| t.words.iter())
        .flat_map(|w| script_runs(w).into_iter().map(|(run, _)| run))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(q: &Query) -> String {
        let term = |t: &Term| {
            let mut s = t.words.join(" ");
            if t.phrase {
                s = format!("\"{s}\"");
            }
            if t.title {
                s = format!("title:{s}");
            }
            if t.prefix {
                s.push('*');
            }
            s
        };
        let mut parts: Vec<String> = q
            .all
            .iter()
            .map(|c| c.iter().map(term).collect::<Vec<_>>().join("|"))
            .collect();
        parts.extend(q.none.iter().map(|t| format!("-{}", term(t))));
        parts.join(" ")
    }

    #[test]
    fn words_alternatives_and_exclusions() {
        assert_eq!(
            shown(&parse("tomato OR basil garden")),
            "tomato|basil garden*"
        );
        assert_eq!(shown(&parse("-tomato garden")), "garden* -\"tomato\"");
        assert_eq!(
            shown(&parse(r#"plan -"red fox" title:Seeds"#)),
            "plan title:seeds* -\"red fox\""
        );
        assert_eq!(
            shown(&parse(r#"title:"Garden plan" notes"#)),
            "title:\"garden plan\" notes*"
        );
        assert_eq!(shown(&parse("a OR b OR c")), "a|b|c*");
    }

    #[test]
    fn odd_input_is_words() {
        assert_eq!(shown(&parse("OR tomato or")), "or tomato or*");
        assert_eq!(shown(&parse("tomato OR")), "tomato*");
        assert_eq!(shown(&parse("- -- title: x-ray")), "title x ray*");
        assert_eq!(shown(&parse("\"unclosed phrase")), "\"unclosed phrase\"");
        assert_eq!(shown(&parse("-\"\" \"\" -")), "");
        assert_eq!(shown(&parse("-ready-made")), "-\"ready made\"");
        assert_eq!(shown(&parse("Windows版")), "windows版*");
        assert!(parse("🎉 !!! ***").is_empty());
    }

    #[test]
    fn the_query_is_bounded() {
        let q = parse(&"word ".repeat(5000));
        assert_eq!(q.all.len(), MAX_TERMS);
        let q = parse(&"-word ".repeat(50));
        assert_eq!((q.all.len(), q.none.len()), (0, MAX_TERMS));
        let long = "é".repeat(1000);
        assert!(parse(&long).all[0][0].words[0].len() <= MAX_QUERY_BYTES);
    }
}
