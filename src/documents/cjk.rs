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
    let mut run: Vec<char> = Vec::new();
    let flush = |run: &mut Vec<char>, out: &mut Vec<String>| {
        match run.len() {
            0 => {}
            1 => out.push(run[0].to_string()),
            _ => out.extend(run.windows(2).map(|w| w.iter().collect::<String>())),
        }
        run.clear();
    };
    // Every CJK character is encoded in three or four bytes, led by 0xE3 or
    // above (U+3040 is E3 81 80), and no other byte of UTF-8 is that high: only
    // such bytes are decoded, and a run goes on while each character starts
    // where the one before it ended. Decoding every character instead was 8 %
    // of an import of text with a few CJK words in it (perf).
    let bytes = text.as_bytes();
    let mut end = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] < 0xE3 {
            i += 1;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
            i += 1;
            continue;
        };
        let cjk = is_cjk(c);
        if i != end || !cjk {
            flush(&mut run, &mut out);
        }
        if cjk {
            run.push(c);
        }
        i += c.len_utf8();
        end = i;
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
        // A run ends at any other character, however it is encoded.
        assert_eq!(bigrams("日本 語"), vec!["日本", "語"]);
        assert_eq!(bigrams("日本€語"), vec!["日本", "語"]);
        assert_eq!(bigrams("日本é語x"), vec!["日本", "語"]);
        assert_eq!(bigrams("「日本」"), vec!["日本"]);
        assert_eq!(index_text("日本", "ひらがな"), "日本 ひら らが がな");
    }
}
