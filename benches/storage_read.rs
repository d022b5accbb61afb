//! Random reads of documents when the data is larger than the memory the reader may
//! use: quire on SQLite (through `documents::get`, its real read path) against the
//! same rows in PostgreSQL through sqlx. `benches/larger-than-ram.sh` drives it.
//!
//! Subcommands (settings from `QUIRE_LTR_*`, see `Settings`):
//! - `seed`: fills the SQLite database with quire's own seeder, reusing what is there,
//!   and writes the ids of each size class to `ids.tsv`;
//! - `load-pg`: copies the documents table into PostgreSQL (skipped when complete);
//! - `read sqlite|postgres`: random reads by id, one at a time, per-read latency in
//!   an HDR histogram per size class; prints a table and writes `results-ENGINE.csv`
//!   (`read sqlite-html` reads only the `html` column, for comparison);
//! - `report`: both engines side by side with the ratio, from the CSV files;
//! - `copy PAGE_SIZE`: the database rewritten with `VACUUM INTO` at another page
//!   size, into `page-PAGE_SIZE/` with the ids (read it with `QUIRE_LTR_DIR` set
//!   there); skipped when the copy is there.

mod common;
#[path = "storage_read/copy.rs"]
mod copy;
#[path = "storage_read/pg.rs"]
mod pg;
#[path = "storage_read/text.rs"]
mod text;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures::TryStreamExt;
use hdrhistogram::Histogram;
use quire::config::Config;
use quire::db::Db;
use quire::documents::{self, DocId};
use quire::seed::Rng;

/// Every knob, from the environment; the defaults are the experiment as specified:
/// ~3 GiB of document text for a reader limited to 1 GiB.
pub struct Settings {
    /// `QUIRE_LTR_TEXT` (`words` or `random`): what the documents hold.
    pub text: text::Text,
    /// `QUIRE_LTR_DIR` [/tmp/quire-ltr, /tmp/quire-ltr_random for random text]:
    /// the SQLite database, ids and results live here.
    pub dir: PathBuf,
    /// `QUIRE_LTR_SIZES`: body sizes in bytes, comma-separated.
    pub sizes: Vec<usize>,
    /// `QUIRE_LTR_TOTAL_BYTES`: document text in all, split evenly between sizes.
    pub total_bytes: u64,
    /// `QUIRE_LTR_READS`: reads per run (all sizes together) ...
    pub reads: u64,
    /// `QUIRE_LTR_SECONDS`: ... or this long, whichever ends first.
    pub seconds: u64,
    /// `QUIRE_LTR_PG_URL`: the PostgreSQL database the rows are copied into
    /// [quire_ltr, or quire_ltr_random, over the Unix socket].
    pub pg_url: String,
}

impl Settings {
    fn from_env() -> anyhow::Result<Self> {
        let var = |name: &str, default: &str| std::env::var(name).unwrap_or(default.into());
        let num = |name: &str, default: u64| -> anyhow::Result<u64> {
            var(name, &default.to_string())
                .parse()
                .with_context(|| format!("{name} is not a number"))
        };
        let sizes = var("QUIRE_LTR_SIZES", "1024,8192,65536,262144")
            .split(',')
            .map(|s| s.trim().parse::<usize>())
            .collect::<Result<Vec<_>, _>>()
            .context("QUIRE_LTR_SIZES: comma-separated byte counts")?;
        if sizes.is_empty() || sizes.windows(2).any(|w| w[0] >= w[1]) {
            bail!("QUIRE_LTR_SIZES must be increasing sizes");
        }
        let text = text::Text::parse(&var("QUIRE_LTR_TEXT", "words"))?;
        let suffix = text.suffix();
        Ok(Self {
            text,
            dir: var("QUIRE_LTR_DIR", &format!("/tmp/quire-ltr{suffix}")).into(),
            sizes,
            total_bytes: num("QUIRE_LTR_TOTAL_BYTES", 3 << 30)?,
            reads: num("QUIRE_LTR_READS", 40_000)?,
            seconds: num("QUIRE_LTR_SECONDS", 180)?,
            pg_url: var(
                "QUIRE_LTR_PG_URL",
                &format!(
                    "postgres://postgres@localhost/quire_ltr{suffix}?host=/var/run/postgresql"
                ),
            ),
        })
    }

    /// The size class of a body: the smallest configured size it fits in.
    fn class_of(&self, size: i64) -> usize {
        let size = size.max(0) as usize;
        self.sizes
            .iter()
            .copied()
            .find(|&s| size <= s)
            .unwrap_or(*self.sizes.last().unwrap_or(&0))
    }

    fn count_for(&self, size: usize) -> u64 {
        self.total_bytes / self.sizes.len() as u64 / size as u64
    }

    fn ids_path(&self) -> PathBuf {
        self.dir.join("ids.tsv")
    }

    fn results_path(&self, engine: &str) -> PathBuf {
        self.dir.join(format!("results-{engine}.csv"))
    }

    /// quire's configuration for the bench database, with the size cap raised to
    /// the largest size class when the default is smaller.
    fn config(&self) -> Config {
        let mut config = Config::from_env();
        config.database_url = format!("sqlite://{}", self.dir.join("quire.db").display());
        let largest = *self.sizes.last().unwrap_or(&0);
        config.max_doc_bytes = config.max_doc_bytes.max(largest);
        config
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let settings = Settings::from_env()?;
    std::fs::create_dir_all(&settings.dir)
        .with_context(|| format!("creating {}", settings.dir.display()))?;
    let rt = tokio::runtime::Runtime::new().context("starting tokio")?;
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["seed"] => rt.block_on(seed(&settings)),
        ["load-pg"] => rt.block_on(pg::load(&settings)),
        ["read", "sqlite"] => rt.block_on(read_sqlite(&settings)),
        ["read", "postgres"] => rt.block_on(pg::read(&settings)),
        ["read", "sqlite-html"] => rt.block_on(read_sqlite_html(&settings)),
        ["report"] => report(&settings),
        ["copy", page_size] => rt.block_on(copy::copy(&settings, page_size)),
        _ => {
            bail!(
                "usage: storage-read seed | load-pg | read sqlite|postgres|sqlite-html | report \
                 | copy PAGE_SIZE"
            )
        }
    }
}

/// Seeds each size class up to its count and writes `ids.tsv` (class, id).
async fn seed(s: &Settings) -> anyhow::Result<()> {
    let config = s.config();
    let db = Db::open(&config).await?;
    let have = scan_ids(s, &db).await?;
    let mut seeded = false;
    for (i, &size) in s.sizes.iter().enumerate() {
        let want = s.count_for(size);
        let got = have.get(&size).map_or(0, |v| v.len() as u64);
        if got >= want {
            println!("{size:>7} B: {got} documents (wanted {want}), kept");
            continue;
        }
        println!("{size:>7} B: {got} documents, seeding {} more", want - got);
        let started = Instant::now();
        let n = (want - got) as usize;
        let seed = 1 + i as u64 * 1_000_003 + got;
        match s.text {
            text::Text::Words => {
                quire::seed::seed(&db, n, size, seed, config.max_doc_bytes).await?
            }
            // Stored as quire stores any text, not indexed for search: words
            // of random characters would make an index several times the text,
            // which a read by id never touches.
            text::Text::Random => {
                let make = text::random_document;
                quire::seed::seed_with(&db, (n, size), seed, config.max_doc_bytes, make).await?;
                db.after_bulk_load().await?;
            }
        }
        seeded = true;
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{size:>7} B: {n} documents in {secs:.0} s ({:.0} docs/s, {:.1} MB/s of text)",
            n as f64 / secs,
            (n * size) as f64 / secs / 1e6
        );
    }
    let ids = if seeded {
        scan_ids(s, &db).await?
    } else {
        have
    };
    db.close().await;
    let mut out = String::new();
    for (size, list) in &ids {
        for id in list {
            out.push_str(&format!("{size}\t{id}\n"));
        }
    }
    std::fs::write(s.ids_path(), out).context("writing ids.tsv")?;
    for (size, list) in &ids {
        println!("{size:>7} B: {} ids written", list.len());
    }
    Ok(())
}

/// Every live document's id by size class. A full scan: run it before dropping caches.
async fn scan_ids(s: &Settings, db: &Db) -> anyhow::Result<BTreeMap<usize, Vec<String>>> {
    let mut by_class: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut rows = quire::db::query_as::<(String, i64)>(
        "SELECT id, size FROM documents WHERE deleted_at IS NULL ORDER BY seq",
    )
    .fetch(&db.read)
    .await?;
    while let Some((id, size)) = rows.try_next().await? {
        by_class.entry(s.class_of(size)).or_default().push(id);
    }
    Ok(by_class)
}

/// The ids to read, by size class, from `ids.tsv` (reading them from the database
/// would warm its cache).
pub fn load_ids(s: &Settings) -> anyhow::Result<Vec<(usize, Vec<String>)>> {
    let text = std::fs::read_to_string(s.ids_path())
        .with_context(|| format!("reading {}; run `seed` first", s.ids_path().display()))?;
    let mut by_class: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for line in text.lines() {
        let (size, id) = line.split_once('\t').context("ids.tsv: size<TAB>id")?;
        by_class
            .entry(size.parse().context("ids.tsv: size")?)
            .or_default()
            .push(id.to_owned());
    }
    Ok(by_class
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect())
}

/// Random reads, one at a time, until the read count or the time is used up. `read`
/// returns the bytes of text it fetched (so nothing is optimised away).
pub async fn run_reads<F, Fut>(
    s: &Settings,
    engine: &str,
    ids: &[(usize, Vec<String>)],
    mut read: F,
) -> anyhow::Result<()>
where
    F: FnMut(String) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<usize>>,
{
    let mut hists: Vec<Histogram<u64>> = ids
        .iter()
        .map(|_| Histogram::new(3))
        .collect::<Result<_, _>>()?;
    // The same seed for both engines: they read the same ids in the same order.
    let mut rng = Rng::new(0x5eed);
    let deadline = Instant::now() + Duration::from_secs(s.seconds);
    let started = Instant::now();
    let mut bytes = 0usize;
    let mut done = 0u64;
    while done < s.reads && Instant::now() < deadline {
        let class = rng.below(ids.len());
        let list = &ids[class].1;
        let id = list[rng.below(list.len())].clone();
        let t = Instant::now();
        bytes += read(id).await?;
        hists[class].record(t.elapsed().as_nanos() as u64)?;
        done += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{engine}: {done} reads in {secs:.1} s, {:.1} MB of text",
        bytes as f64 / 1e6
    );
    println!(
        "{:>8} {:>7} {:>9} {:>9} {:>9} {:>9}",
        "size", "reads", "mean ms", "p50 ms", "p99 ms", "max ms"
    );
    let mut csv = String::from("engine,size,reads,mean_ms,p50_ms,p99_ms,max_ms\n");
    for ((size, _), h) in ids.iter().zip(&hists) {
        let mean = format!("{:.3}", h.mean() / 1e6);
        let (p50, p99, max) = (
            common::ms(h.value_at_quantile(0.5)),
            common::ms(h.value_at_quantile(0.99)),
            common::ms(h.max()),
        );
        println!(
            "{size:>8} {:>7} {mean:>9} {p50:>9} {p99:>9} {max:>9}",
            h.len()
        );
        csv.push_str(&format!(
            "{engine},{size},{},{mean},{p50},{p99},{max}\n",
            h.len()
        ));
    }
    std::fs::write(s.results_path(engine), csv).context("writing the results")?;
    Ok(())
}

async fn read_sqlite(s: &Settings) -> anyhow::Result<()> {
    let ids = load_ids(s)?;
    let db = Db::open(&s.config()).await?;
    run_reads(s, "sqlite", &ids, |id| {
        let db = db.clone();
        async move {
            let id = DocId::parse(&id).context("ids.tsv holds a malformed id")?;
            let doc = documents::get(&db, &id, documents::Caller::Quire).await?;
            Ok(doc.body.len() + doc.html.len())
        }
    })
    .await?;
    db.close().await;
    Ok(())
}

/// What a page view that fetched only the rendered page would cost: the same pool
/// and ids, the compressed page (`html_z`) instead of the whole row. Not quire's
/// read path; a yardstick for changing it.
async fn read_sqlite_html(s: &Settings) -> anyhow::Result<()> {
    let ids = load_ids(s)?;
    let db = Db::open(&s.config()).await?;
    run_reads(s, "sqlite-html", &ids, |id| {
        let db = db.clone();
        async move {
            let page: Option<Vec<u8>> =
                quire::db::query_scalar("SELECT html_z FROM documents WHERE id = ?1")
                    .bind(id)
                    .fetch_one(&db.read)
                    .await?;
            Ok(page.map_or(0, |p| p.len()))
        }
    })
    .await?;
    db.close().await;
    Ok(())
}

/// Both engines side by side, with how many times faster SQLite was.
fn report(s: &Settings) -> anyhow::Result<()> {
    let load = |engine: &str| -> anyhow::Result<BTreeMap<usize, Vec<String>>> {
        let path = s.results_path(engine);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(text
            .lines()
            .skip(1)
            .filter_map(|l| {
                let cols: Vec<String> = l.split(',').map(str::to_owned).collect();
                Some((cols.get(1)?.parse().ok()?, cols))
            })
            .collect())
    };
    let (lite, pg) = (load("sqlite")?, load("postgres")?);
    let mut csv = String::from(
        "size,sqlite_mean_ms,sqlite_p50_ms,sqlite_p99_ms,sqlite_max_ms,\
         pg_mean_ms,pg_p50_ms,pg_p99_ms,pg_max_ms,mean_ratio,p99_ratio\n",
    );
    println!(
        "{:>8} | {:>8} {:>8} {:>8} {:>8} | {:>8} {:>8} {:>8} {:>8} | {:>6} {:>6}",
        "size", "mean", "p50", "p99", "max", "mean", "p50", "p99", "max", "mean×", "p99×"
    );
    println!(
        "{:>8} | {:^35} | {:^35} | PG / SQLite",
        "", "quire on SQLite (ms)", "PostgreSQL via sqlx (ms)"
    );
    for (size, l) in &lite {
        let Some(p) = pg.get(size) else { continue };
        let f = |v: &Vec<String>, i: usize| v[i].parse::<f64>().unwrap_or(f64::NAN);
        let (mr, pr) = (f(p, 3) / f(l, 3), f(p, 5) / f(l, 5));
        println!(
            "{size:>8} | {:>8} {:>8} {:>8} {:>8} | {:>8} {:>8} {:>8} {:>8} | {mr:>6.1} {pr:>6.1}",
            l[3], l[4], l[5], l[6], p[3], p[4], p[5], p[6]
        );
        csv.push_str(&format!(
            "{size},{},{},{},{},{},{},{},{},{mr:.2},{pr:.2}\n",
            l[3], l[4], l[5], l[6], p[3], p[4], p[5], p[6]
        ));
    }
    std::fs::write(s.dir.join("results.csv"), csv).context("writing results.csv")?;
    Ok(())
}
