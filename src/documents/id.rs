//! Document ids: 128 random bits, written as 26 lowercase base32 characters, so a
//! URL reveals nothing about how many documents exist or when one was made.

use std::fmt;

const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
pub const LEN: usize = 26;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocId(String);

impl DocId {
    pub fn random() -> Self {
        let mut bytes = [0u8; 16];
        // The OS random source failing is not something a request can recover from.
        getrandom::fill(&mut bytes).expect("the operating system's random source failed");
        Self(encode(&bytes))
    }

    /// The id for 16 bytes of a digest, for ids that must come out the same when
    /// the same input is seen again.
    pub fn from_digest(bytes: [u8; 16]) -> Self {
        Self(encode(&bytes))
    }

    /// Accepts exactly the strings `random` can produce; anything else is no id.
    pub fn parse(s: &str) -> Option<Self> {
        let ok = s.len() == LEN
            && s.bytes().all(|b| value(b).is_some())
            // 128 bits fill 25.6 characters: the last one carries 3 bits, then zeros.
            && value(s.as_bytes()[LEN - 1]).is_some_and(|v| v.is_multiple_of(4));
        ok.then(|| Self(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The 5 bits a character of `ALPHABET` stands for, by arithmetic: every page
/// view parses an id, and searching the alphabet for each byte was 2 % of one.
fn value(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b - b'a'),
        b'2'..=b'7' => Some(b - b'2' + 26),
        _ => None,
    }
}

fn encode(bytes: &[u8; 16]) -> String {
    let n = u128::from_be_bytes(*bytes);
    (0..LEN)
        .map(|i| {
            let shift = 128 - 5 * (i as i32 + 1);
            let idx = if shift >= 0 {
                (n >> shift) & 31
            } else {
                (n << -shift) & 31
            };
            ALPHABET[idx as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_parse_back_and_differ() {
        let a = DocId::random();
        let b = DocId::random();
        assert_ne!(a, b);
        assert_eq!(DocId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(a.as_str().len(), LEN);
    }

    #[test]
    fn malformed_ids_are_rejected() {
        for bad in [
            "",
            "abc",
            "../../etc/passwd",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "aaaaaaaaaaaaaaaaaaaaaaaaab",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "aaaaaaaaaaaaaaaaaaaaaaaa1a",
            "aaaaaaaaaaaaaaaaaaaaaaaa8a",
            "aaaaaaaaaaaaaaaaaaaaaaaa0a",
            "aaaaaaaaaaaaaaaaaaaaaaa{a",
            "aaaaaaaaaaaaaaaaaaaaaaaéa",
        ] {
            assert_eq!(DocId::parse(bad), None, "{bad:?}");
        }
        assert!(DocId::parse("aaaaaaaaaaaaaaaaaaaaaaaaaa").is_some());
        assert!(DocId::parse("zz234567abcdefghijklmnopqa").is_some());
    }

    #[test]
    fn each_character_stands_for_its_place_in_the_alphabet() {
        for (i, &c) in ALPHABET.iter().enumerate() {
            assert_eq!(value(c), Some(i as u8), "{}", c as char);
        }
        assert_eq!(value(b'1'), None);
        assert_eq!(value(b'A'), None);
    }

    #[test]
    fn encoding_covers_all_bits() {
        assert_eq!(encode(&[0; 16]), "a".repeat(LEN));
        assert_eq!(encode(&[0xff; 16]), format!("{}4", "7".repeat(LEN - 1)));
    }
}
