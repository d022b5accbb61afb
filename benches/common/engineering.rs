//! A realistic engineering page for the save benchmarks: headings, a table,
//! prose and four fenced code blocks (Rust, Python, SQL, YAML) with names of
//! their own, about `size` bytes. What a design document or a runbook looks
//! like, where highlighting the code is most of rendering a save.

use quire::seed::{Rng, document};

/// A page of about `size` bytes: its title and text.
pub fn page(rng: &mut Rng, size: usize) -> (String, String) {
    let n = rng.next_u64() % 1_000_000;
    let (title, prose) = document(rng, size / 3);
    let mut paragraphs = prose.split("\n\n");
    let mut para = || paragraphs.next().unwrap_or("More notes follow.").to_owned();
    let mut body = format!("# {title}\n\n{}\n\n## Design\n\n{}\n\n", para(), para());
    body.push_str("| component | owner | latency budget | status |\n| --- | --- | ---: | --- |\n");
    for i in 0..8 {
        body.push_str(&format!(
            "| service_{n}_{i} | team {} | {} ms | {} |\n",
            rng.below(9),
            10 + rng.below(90),
            ["ready", "in review", "planned"][rng.below(3)]
        ));
    }
    let blocks = [rust(n), python(n), sql(n), yaml(n)];
    for (i, block) in blocks.iter().enumerate() {
        body.push_str(&format!("\n## Step {}\n\n{}\n\n{block}\n", i + 1, para()));
    }
    while body.len() < size {
        body.push_str(&format!("\n{}\n", para()));
    }
    (title, body)
}

fn rust(n: u64) -> String {
    let mut s = String::from("```rust\n");
    for i in 0..12 {
        s.push_str(&format!(
            "pub fn handle_{n}_{i}(req: &Request, limit: usize) -> Result<Vec<u8>, Error> {{\n    \
             let body = req.body().get(..limit).ok_or(Error::TooLarge {{ at: {i} }})?;\n    \
             Ok(body.iter().map(|b| b ^ 0x{i:02x}).collect())\n}}\n"
        ));
    }
    s + "```\n"
}

fn python(n: u64) -> String {
    let mut s = String::from("```python\n");
    for i in 0..10 {
        s.push_str(&format!(
            "def migrate_{n}_{i}(rows, batch=500):\n    \
             \"\"\"Move rows in batches of {i}.\"\"\"\n    \
             for start in range(0, len(rows), batch):\n        \
             yield [r for r in rows[start:start + batch] if r.get('id') != {i}]\n\n"
        ));
    }
    s + "```\n"
}

fn sql(n: u64) -> String {
    let mut s = String::from("```sql\n");
    for i in 0..8 {
        s.push_str(&format!(
            "SELECT d.id, count(*) AS saves_{i} FROM documents_{n} d\n  \
             JOIN revisions r ON r.doc = d.id WHERE d.updated_at > {i}000\n  \
             GROUP BY d.id HAVING count(*) > {i} ORDER BY saves_{i} DESC;\n"
        ));
    }
    s + "```\n"
}

fn yaml(n: u64) -> String {
    let mut s = String::from("```yaml\n");
    for i in 0..10 {
        s.push_str(&format!(
            "service_{n}_{i}:\n  image: \"registry.example/app:{i}.0\"\n  replicas: {i}\n  \
             env:\n    - name: LIMIT\n      value: \"{i}00\"\n"
        ));
    }
    s + "```\n"
}
