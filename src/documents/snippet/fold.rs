//! Case and accent folding as the search indexes fold, and whether a text holds
//! a folded needle, told without folding the whole text where that can be done.

/// One character, lower-cased and without its accent (Latin letters), so that
/// "Café" is found by "cafe" as the word index finds it. Inlined: a snippet
/// folds every character of the lines it looks at, nearly all of them ASCII.
#[inline]
pub(super) fn fold(c: char) -> char {
    if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        fold_other(c)
    }
}

fn fold_other(c: char) -> char {
    let c = c.to_lowercase().next().unwrap_or(c);
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' => 'i',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ś' | 'š' | 'ş' => 's',
        'ť' | 'ţ' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        'ł' => 'l',
        'ř' => 'r',
        'ğ' => 'g',
        c => c,
    }
}

/// `text` folded as the trigram index folds it (case and Latin accents), so
/// that one folded text holds another exactly when the index would match it.
pub fn folded(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars().map(fold).collect()
}

/// Whether `text` holds `needle` (already folded) once folded, when that can be
/// told without folding it: an ASCII needle found in the raw text, case aside,
/// is there (ASCII letters fold to their lower case, and no byte of a longer
/// UTF-8 character is ASCII); not found in ASCII text, it is not. `None`: the
/// text must be folded to tell (accented letters may fold into the needle).
/// Folding 64 KB of accented text costs ~0.5 ms; this scan a few µs.
fn holds_without_folding(text: &str, needle: &str) -> Option<bool> {
    if !needle.is_ascii() {
        return None;
    }
    let found = holds_lowered(text, needle);
    match found {
        true => Some(true),
        false if text.is_ascii() => Some(false),
        false => None,
    }
}

/// Whether `text` with its ASCII letters lower-cased holds `needle` (ASCII),
/// a piece at a time: lower-casing and looking are both vectorised, where a
/// loop comparing each byte case aside was not (~4x slower).
fn holds_lowered(text: &str, needle: &str) -> bool {
    const PIECE: usize = 16 * 1024;
    let Some(overlap) = needle.len().checked_sub(1) else {
        return true;
    };
    let mut piece = String::with_capacity(PIECE + 4);
    let mut start = 0;
    loop {
        let mut end = (start + PIECE).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        piece.clear();
        piece.push_str(&text[start..end]);
        piece.make_ascii_lowercase();
        if piece.contains(needle) {
            return true;
        }
        if end == text.len() {
            return false;
        }
        // The next piece starts early enough to hold a match across the cut.
        let mut next = end - overlap.min(end - start - 1);
        while !text.is_char_boundary(next) {
            next -= 1;
        }
        start = next.max(start + 1);
        while !text.is_char_boundary(start) {
            start += 1;
        }
    }
}

/// Whether `text`, folded, holds `needle` (already folded). An ASCII needle
/// missing from the raw text can only be there through a character that folds
/// into ASCII (an accented letter): only the needle's length around each such
/// character is folded, never the whole text (a 200 KB text with a few
/// accents cost ~1 ms to fold, for every candidate of a part of a word).
pub fn holds(text: &str, needle: &str) -> bool {
    if let Some(answer) = holds_without_folding(text, needle) {
        return answer;
    }
    if !needle.is_ascii() {
        return folded(text).contains(needle);
    }
    let reach = needle.len();
    let mut near = String::new();
    text.char_indices()
        .filter(|&(_, c)| !c.is_ascii() && fold(c).is_ascii())
        .any(|(at, _)| {
            // `reach` characters either side of `at`: all a match holding it spans.
            let from = text[..at]
                .char_indices()
                .rev()
                .nth(reach - 1)
                .map_or(0, |(i, _)| i);
            let to = text[at..]
                .char_indices()
                .nth(reach)
                .map_or(text.len(), |(i, _)| at + i);
            near.clear();
            near.extend(text[from..to].chars().map(fold));
            near.contains(needle)
        })
}

/// Where `needle` occurs in `hay` (both folded), by char index, left to right.
pub(super) fn occurrences(hay: &[char], needle: &[char]) -> impl Iterator<Item = usize> {
    let n = needle.len();
    (0..hay.len().saturating_sub(n.max(1) - 1))
        .filter(move |&i| n > 0 && hay[i] == needle[0] && hay[i..i + n] == *needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds_folded(hay: &str, needle: &str) -> bool {
        folded(hay).contains(&folded(needle))
    }

    #[test]
    fn a_needle_is_told_in_raw_text_when_folding_cannot_change_the_answer() {
        assert_eq!(
            holds_without_folding("The ARCHIVE room", "rchiv"),
            Some(true)
        );
        assert_eq!(holds_without_folding("Café ARCHIVE", "rchiv"), Some(true));
        assert_eq!(
            holds_without_folding("plain text only", "rchiv"),
            Some(false)
        );
        // Accented text may fold into the needle: it must be folded to tell.
        assert_eq!(holds_without_folding("un café", "cafe"), None);
        assert!(folded("un café").contains("cafe"));
        assert_eq!(holds_without_folding("abc", "ç"), None);
        assert_eq!(holds_without_folding("ab", "abc"), Some(false));
    }

    #[test]
    fn folding_holds_case_and_accents_and_wants_the_exact_sequence() {
        assert!(holds_folded("A Café in Berlin", "cafe in"));
        assert!(holds_folded("GARDEN ledger", "den led"));
        assert!(holds_folded("全文検索エンジン", "文検索"));
        assert!(!holds_folded("the garden, the ledger", "den led"));
        assert!(!holds_folded("abc bcd", "abcd"));
    }

    #[test]
    fn holds_answers_as_folding_the_whole_text_would() {
        let texts = [
            "A Café in Berlin — “quoted” text",
            "ÉCOLE, école, ecole",
            "naïve façade résumé",
            "ø at the start: øre and Ørsted",
            "Kelvin: 5 \u{212A} and İstanbul",
            "全文検索エンジン and ASCII",
            "à",
            "",
        ];
        let needles = [
            "cafe",
            "cafe in",
            "ecole",
            "naive",
            "facade",
            "resume",
            "ore",
            "orsted",
            "k",
            "5 k",
            "istanbul",
            "文検索",
            "a",
            "quoted",
            "zzz",
            "e, e",
        ];
        for text in texts {
            for needle in needles {
                assert_eq!(
                    holds(text, needle),
                    folded(text).contains(needle),
                    "{text:?} holds {needle:?}"
                );
            }
        }
    }
}
