//! Chinese, Japanese and Korean text has no spaces between words, so a word index
//! sees a whole sentence as one token. Indexing every pair of neighbouring CJK
//! characters makes any run of two or more findable.

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FFFF) // Extensions B and later
}

/// The CJK runs of `text` as space-separated bigrams (a lone character stays alone).
pub fn bigrams(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Every CJK character is encoded in three or four bytes, led by 0xE3 or
    // above (U+3040 is E3 81 80): text without such a byte has none, and is told
    // so by one pass over its bytes instead of decoding every character (8 % of
    // an import's time went to this function for text with no CJK at all).
    if !text.bytes().any(|b| b >= 0xE3) {
        return out;
    }
    let mut run: Vec<char> = Vec::new();
    let flush = |run: &mut Vec<char>, out: &mut Vec<String>| {
        match run.len() {
            0 => {}
            1 => out.push(run[0].to_string()),
            _ => out.extend(run.windows(2).map(|w| w.iter().collect::<String>())),
        }
        run.clear();
    };
    for c in text.chars() {
        if is_cjk(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// What goes into `documents.cjk` for a title and body.
pub fn index_text(title: &str, body: &str) -> String {
    let mut all = bigrams(title);
    all.extend(bigrams(body));
    all.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_become_overlapping_pairs() {
        assert_eq!(bigrams("全文検索 works"), vec!["全文", "文検", "検索"]);
        assert_eq!(bigrams("a字b"), vec!["字"]);
        assert!(bigrams("plain text").is_empty());
        assert!(bigrams("naïve café — “quoted” €5").is_empty());
        assert_eq!(bigrams("€ 한국어"), vec!["한국", "국어"]);
        assert_eq!(bigrams("𠀋𠀌"), vec!["𠀋𠀌"]);
        assert_eq!(index_text("日本", "ひらがな"), "日本 ひら らが がな");
    }
}
