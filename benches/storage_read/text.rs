//! The two kinds of text the reads are measured on: quire's generated Markdown
//! (words from a short list, which compresses well) and uniformly random
//! characters, which no engine can compress.

use anyhow::bail;
use quire::seed::Rng;

/// Which text the documents hold (`QUIRE_LTR_TEXT`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Text {
    /// `words`: `quire::seed::document`, Markdown-like prose from a word list,
    /// seeded as `quire seed` does (indexed for search).
    Words,
    /// `random`: lines of 76 characters drawn uniformly from 64 (6 random bits a
    /// byte, as base64 of random bytes): zstd keeps ~75 %, PostgreSQL's pglz
    /// gives up and stores the value as it is. Stored, not indexed for search.
    Random,
}

impl Text {
    pub fn parse(s: &str) -> anyhow::Result<Self> {
        match s {
            "words" => Ok(Self::Words),
            "random" => Ok(Self::Random),
            _ => bail!("QUIRE_LTR_TEXT is words or random, not {s:?}"),
        }
    }

    /// The suffix of the default directory and PostgreSQL database.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Words => "",
            Self::Random => "_random",
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// A body of exactly `size` bytes of random characters in lines of 76.
pub fn random_document(rng: &mut Rng, size: usize) -> (String, String) {
    let title = format!("random {}", rng.next_u64() % 1_000_000);
    let mut body = String::with_capacity(size);
    let mut bits = 0u64;
    let mut left = 0;
    while body.len() < size {
        if body.len() % 77 == 76 {
            body.push('\n');
            continue;
        }
        if left == 0 {
            (bits, left) = (rng.next_u64(), 10);
        }
        body.push(ALPHABET[(bits & 63) as usize] as char);
        bits >>= 6;
        left -= 1;
    }
    (title, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_text_has_the_size_and_does_not_repeat() {
        let (_, a) = random_document(&mut Rng::new(1), 65536);
        let (_, b) = random_document(&mut Rng::new(2), 65536);
        assert_eq!(a.len(), 65536);
        assert_ne!(a, b);
        let packed = zstd::bulk::compress(a.as_bytes(), 3).expect("compresses");
        assert!(packed.len() > a.len() * 7 / 10, "{}", packed.len());
    }
}
