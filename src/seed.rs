//! Generated documents for benchmarks and demos: markdown-like text of a chosen
//! size from a seeded generator, so every run builds the same data set.

use crate::db::Db;
use crate::documents::{self, Valid};

const WORDS: &[&str] = &[
    "quire",
    "page",
    "river",
    "stone",
    "garden",
    "ledger",
    "winter",
    "lantern",
    "harbor",
    "meadow",
    "copper",
    "signal",
    "orchard",
    "thread",
    "compass",
    "canvas",
    "summit",
    "ember",
    "willow",
    "archive",
    "beacon",
    "cellar",
    "falcon",
    "granite",
    "hollow",
    "island",
    "juniper",
    "kettle",
    "lumen",
    "marble",
    "nectar",
    "oak",
    "pepper",
    "quartz",
    "raven",
    "saffron",
    "tundra",
    "umber",
    "velvet",
    "walnut",
    "yarrow",
    "zephyr",
    "recipe",
    "budget",
    "meeting",
    "draft",
    "review",
    "holiday",
    "invoice",
    "school",
    "garage",
    "bicycle",
    "kitchen",
    "naïve",
    "café",
    "日本語",
    "検索",
    "文書",
];

/// xorshift64*: small, fast, and the same sequence everywhere for a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

/// A markdown document of about `size` bytes: headings, paragraphs, lists, code.
pub fn document(rng: &mut Rng, size: usize) -> (String, String) {
    let title = format!("{} {} {}", rng.word(), rng.word(), rng.next_u64() % 100_000);
    let mut body = String::with_capacity(size + 200);
    while body.len() < size {
        match rng.below(10) {
            0 => body.push_str(&format!("## {} {}\n\n", rng.word(), rng.word())),
            1 => {
                for _ in 0..3 {
                    body.push_str(&format!(
                        "- {} **{}** {}\n",
                        rng.word(),
                        rng.word(),
                        rng.word()
                    ));
                }
                body.push('\n');
            }
            2 => body.push_str(&format!(
                "```\nlet {} = {};\n```\n\n",
                rng.word(),
                rng.below(1000)
            )),
            _ => {
                let n = 20 + rng.below(60);
                for i in 0..n {
                    if i > 0 {
                        body.push(' ');
                    }
                    body.push_str(rng.word());
                }
                body.push_str(".\n\n");
            }
        }
    }
    // Cut at a character boundary at or below `size`.
    let mut end = size.min(body.len());
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    body.truncate(end);
    (title, body)
}

/// Inserts `count` generated documents of `size` bytes, with a progress bar.
pub async fn seed(db: &Db, count: usize, size: usize, seed: u64, cap: usize) -> anyhow::Result<()> {
    seed_with(db, (count, size), seed, cap, document).await?;
    crate::progress::index_for_search(db, true).await?;
    db.after_bulk_load().await?;
    Ok(())
}

/// Makes a document (title, body) of about the asked size from the generator.
pub type Generator = fn(&mut Rng, usize) -> (String, String);

/// Stores `count` documents of `size` bytes from `make`, as [`seed`] does, but
/// leaves them queued for the search index (the server indexes them).
pub async fn seed_with(
    db: &Db,
    (count, size): (usize, usize),
    seed: u64,
    cap: usize,
    make: Generator,
) -> anyhow::Result<()> {
    let bar = crate::progress::bar(
        count as u64,
        true,
        "seeding [{bar:40}] {pos}/{len} documents",
    )?;
    let mut rng = Rng::new(seed);
    let mut left = count;
    while left > 0 {
        let n = left.min(500);
        let batch = (0..n)
            .map(|_| {
                let (title, body) = make(&mut rng, size);
                Valid::parse(&title, &body, cap).map_err(|e| anyhow::anyhow!("{e}"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        documents::create_batch(db, batch).await?;
        left -= n;
        bar.inc(n as u64);
    }
    bar.finish();
    Ok(())
}

/// Writes `count` generated documents as Markdown files (a `# title` line, then
/// the body) into `dir`, 1,000 to a folder, for import benchmarks.
pub fn write_files(
    dir: &std::path::Path,
    count: usize,
    size: usize,
    seed: u64,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let folder = dir.join(format!("{:04}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("creating {}", folder.display()))?;
        }
        let (title, body) = document(&mut rng, size);
        let path = folder.join(format!("{i:06}.md"));
        std::fs::write(&path, format!("# {title}\n\n{body}"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    println!("wrote {count} files to {}", dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_have_the_asked_size_and_are_repeatable() {
        let (t1, b1) = document(&mut Rng::new(7), 8192);
        let (t2, b2) = document(&mut Rng::new(7), 8192);
        assert_eq!((&t1, &b1), (&t2, &b2));
        assert!(b1.len() <= 8192 && b1.len() > 8000, "{}", b1.len());
        assert_ne!(document(&mut Rng::new(8), 100).1, b1[..100.min(b1.len())]);
    }
}
