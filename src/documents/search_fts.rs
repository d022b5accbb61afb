//! A query as FTS5 expressions (SQLite). Every word is re-quoted, so nothing a
//! user typed is FTS5 syntax: quotes, `*`, `NEAR`, `-`, column filters and SQL
//! fragments are just text to look for; quire's own operators (`OR`, `-`,
//! `title:`) were read by `search_terms::parse`.

use super::search_terms::{Query, Term, Unit, needles};
use super::word_forms::Forms;

/// FTS5 expressions for the word index and, where the query has the shape
/// for it, the trigram index (which finds parts of words).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translated {
    /// What is wanted and not unwanted, over titles and texts.
    pub words: Option<String>,
    /// The same over titles only; none where a term is CJK (its bigram column
    /// covers titles and texts together).
    pub titles: Option<String>,
    /// The same with other forms of the words (`tomato` for `tomatoes`); none
    /// where no word has other forms.
    pub forms: Option<String>,
    /// Every trigram of every term: the candidates for `substrings`.
    pub trigrams: Option<String>,
    /// What a hit inside words holds, each term's words as typed, lower-case,
    /// joined by a space: the trigram index keeps no positions, so a candidate's
    /// text is checked for each of these.
    pub substrings: Vec<String>,
    /// What a hit inside words must not hold, as `substrings`.
    pub unwanted: Vec<String>,
    /// The documents not wanted, over titles and texts.
    pub unwanted_words: Option<String>,
    /// The words to mark in snippets, lower-case, one per script run.
    pub needles: Vec<String>,
}

fn star(prefix: bool) -> &'static str {
    if prefix { "*" } else { "" }
}

/// One unit: `"red fox"`, `"ledg"*`, `cjk : "全文 文検"`, in titles only where
/// asked (CJK has no title column); a single word with other `forms` matches
/// them too.
fn unit_expr(unit: &Unit, title: bool, forms: Option<&Forms>) -> String {
    match unit {
        Unit::Cjk { grams, prefix } => format!("cjk : \"{}\"{}", grams.join(" "), star(*prefix)),
        Unit::Words { words, prefix } => {
            let mut alts = vec![format!("\"{}\"{}", words.join(" "), star(*prefix))];
            if let ([word], Some(forms)) = (words.as_slice(), forms) {
                alts.extend(forms.of(word).map(|f| format!("\"{f}\"")));
            }
            let expr = match alts.len() {
                1 => alts.remove(0),
                _ => format!("({})", alts.join(" OR ")),
            };
            if title {
                format!("title : {expr}")
            } else {
                expr
            }
        }
    }
}

fn term_expr(term: &Term, titles: bool, forms: Option<&Forms>) -> Option<String> {
    let forms = forms.filter(|_| !term.phrase);
    let parts: Vec<String> = term
        .units()
        .iter()
        .map(|u| unit_expr(u, titles || term.title, forms))
        .collect();
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(format!("({})", parts.join(" AND "))),
    }
}

fn any_of(parts: Vec<String>) -> Option<String> {
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(format!("({})", parts.join(" OR "))),
    }
}

/// Every clause (one of its terms) and none of the unwanted terms.
fn expr(q: &Query, titles: bool, forms: Option<&Forms>) -> Option<String> {
    let clauses: Vec<String> = q
        .all
        .iter()
        .filter_map(|c| {
            any_of(
                c.iter()
                    .filter_map(|t| term_expr(t, titles, forms))
                    .collect(),
            )
        })
        .collect();
    if clauses.is_empty() {
        return None;
    }
    let wanted = clauses.join(" AND ");
    let unwanted = any_of(
        q.none
            .iter()
            .filter_map(|t| term_expr(t, false, None))
            .collect(),
    );
    Some(match unwanted {
        Some(not) => format!("({wanted}) NOT {not}"),
        None => wanted,
    })
}

pub fn translate(q: &Query, forms: &Forms) -> Translated {
    if q.is_empty() {
        return Translated::default();
    }
    let long_enough = |t: &&Term| t.words.iter().all(|w| w.chars().count() >= 3);
    let joined = |t: &Term| t.words.join(" ");
    let substrings: Vec<String> = match q.plain() {
        Some(terms) if terms.iter().all(long_enough) => terms.into_iter().map(joined).collect(),
        _ => Vec::new(),
    };
    let mut needles = needles(q);
    needles.extend(forms.all().map(str::to_string));
    Translated {
        words: expr(q, false, None),
        titles: (!q.wanted().any(Term::has_cjk))
            .then(|| expr(q, true, None))
            .flatten(),
        forms: (!forms.is_empty())
            .then(|| expr(q, false, Some(forms)))
            .flatten(),
        trigrams: trigram_expr(&substrings),
        substrings,
        unwanted: q.none.iter().map(joined).collect(),
        unwanted_words: expr(&q.unwanted(), false, None),
        needles,
    }
}

/// Most trigrams asked of the index for one search; a longer query's others are
/// left to the check of each candidate's text.
const MAX_TRIGRAMS: usize = 48;

/// `"gar" AND "ard" AND …`: each distinct three-character window of each word
/// of each substring (terms are letters, digits and single spaces: nothing to
/// escape). None spans a space: the index is given each word of a text once,
/// not its running text (`db::search::index_words`), and the candidates' texts
/// are checked for the whole substring.
fn trigram_expr(substrings: &[String]) -> Option<String> {
    let mut grams: Vec<String> = Vec::new();
    for word in substrings.iter().flat_map(|s| s.split(' ')) {
        let chars: Vec<char> = word.chars().collect();
        for w in chars.windows(3) {
            let gram: String = w.iter().collect();
            if !grams.contains(&gram) {
                grams.push(gram);
            }
        }
    }
    if grams.is_empty() {
        return None;
    }
    // Evenly spread over the query when it is long.
    let step = grams.len().div_ceil(MAX_TRIGRAMS);
    let picked: Vec<String> = grams
        .iter()
        .step_by(step)
        .map(|g| format!("\"{g}\""))
        .collect();
    Some(picked.join(" AND "))
}

#[cfg(test)]
mod tests {
    use super::super::search_terms::parse;
    use super::*;

    fn translate(input: &str) -> Translated {
        super::translate(&parse(input), &Forms::default())
    }

    #[test]
    fn plain_words_are_quoted_and_the_last_is_a_prefix() {
        let t = translate("garden ledg");
        assert_eq!(t.words.as_deref(), Some(r#""garden" AND "ledg"*"#));
        assert_eq!(
            t.titles.as_deref(),
            Some(r#"title : "garden" AND title : "ledg"*"#)
        );
        assert_eq!(
            t.trigrams.as_deref(),
            Some(r#""gar" AND "ard" AND "rde" AND "den" AND "led" AND "edg""#)
        );
        assert_eq!(t.substrings, ["garden", "ledg"]);
        assert_eq!(t.forms, None);
    }

    #[test]
    fn operators_become_fts5_operators() {
        let t = translate(r#"tomato OR basil -"red fox" title:plan"#);
        assert_eq!(
            t.words.as_deref(),
            Some(r#"(("tomato" OR "basil") AND title : "plan"*) NOT "red fox""#)
        );
        // Alternatives and titles are no shape for the parts of words.
        assert_eq!(
            (t.trigrams, t.unwanted),
            (None, vec!["red fox".to_string()])
        );
        let t = translate("-tomato garden");
        assert_eq!(t.words.as_deref(), Some(r#"("garden"*) NOT "tomato""#));
        assert_eq!(t.substrings, ["garden"]);
        assert_eq!(translate("-tomato").words, None);
    }

    #[test]
    fn other_forms_are_alternatives_of_their_word() {
        let mut forms = Forms::default();
        forms.add("tomatoes", vec!["tomato".into()]);
        let t = super::translate(&parse(r#"tomatoes "tomatoes garden" plan"#), &forms);
        assert_eq!(
            t.forms.as_deref(),
            Some(r#"("tomatoes" OR "tomato") AND "tomatoes garden" AND "plan"*"#)
        );
        assert!(t.needles.contains(&"tomato".to_string()));
    }

    #[test]
    fn a_phrase_asks_for_the_trigrams_of_its_words_and_is_checked_whole() {
        let t = translate(r#""red foxes""#);
        assert_eq!(
            t.trigrams.as_deref(),
            Some(r#""red" AND "fox" AND "oxe" AND "xes""#)
        );
        assert_eq!(t.substrings, ["red foxes"]);
        // A word shorter than three characters finds no part of a word.
        assert_eq!(translate("ox garden").trigrams, None);
    }

    #[test]
    fn a_long_query_asks_for_a_bounded_number_of_trigrams() {
        let digits: String = (100..250).map(|i| i.to_string()).collect();
        let t = translate(&digits);
        let expr = t.trigrams.unwrap();
        assert!(expr.matches(" AND ").count() < MAX_TRIGRAMS, "{expr}");
    }

    #[test]
    fn phrases_stay_phrases() {
        let t = translate(r#""red fox" den"#);
        assert_eq!(t.words.as_deref(), Some(r#""red fox" AND "den"*"#));
    }

    #[test]
    fn syntax_becomes_plain_text() {
        for input in [
            r#"title:foo NEAR(a b) -x OR "unbalanced"#,
            "'; DROP TABLE documents; --",
            "*",
            "\"\"\"",
            "^foo + bar",
            "title:\"a\" OR -b OR",
        ] {
            let t = translate(input);
            for expr in t
                .words
                .iter()
                .chain(t.trigrams.iter())
                .chain(t.titles.iter())
            {
                let outside_quotes: String = expr.split('"').step_by(2).collect();
                assert!(
                    outside_quotes
                        .chars()
                        .all(|c| " ANDORT()*:cjktile".contains(c)),
                    "{input:?} -> {expr:?}"
                );
            }
        }
    }

    #[test]
    fn junk_and_emoji_give_no_query() {
        assert_eq!(translate("🎉🎉 !!! ***"), Translated::default());
        assert_eq!(translate(""), Translated::default());
    }

    #[test]
    fn cjk_runs_search_the_bigram_column() {
        let t = translate("全文検索");
        assert_eq!(t.words.as_deref(), Some(r#"cjk : "全文 文検 検索""#));
        assert_eq!(t.titles, None);
        let t = translate("Windows版");
        assert_eq!(t.words.as_deref(), Some(r#"(cjk : "版"* AND "windows"*)"#));
    }
}
