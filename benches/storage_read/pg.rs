//! The PostgreSQL side of the comparison: the documents table with the same columns
//! and types (text, bigint, the page compressed by quire in `html_z` as on both of
//! quire's engines; primary key on id), filled from quire's SQLite file, and read
//! by id with a prepared statement the way a PostgreSQL-backed quire would.

use std::str::FromStr;

use anyhow::Context;
use futures::TryStreamExt;
use quire::db::Db;
use quire::documents::Document;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::{Settings, load_ids, run_reads};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS documents (
    seq            bigint NOT NULL,
    id             text PRIMARY KEY,
    title          text NOT NULL,
    version        bigint NOT NULL,
    created_at     bigint NOT NULL,
    updated_at     bigint NOT NULL,
    deleted_at     bigint,
    render_version bigint NOT NULL,
    size           bigint NOT NULL,
    body           text NOT NULL,
    html           text NOT NULL,
    html_z         bytea,
    cjk            text NOT NULL DEFAULT '',
    owner_id       bigint,
    visibility     text NOT NULL DEFAULT 'private',
    public_token   text
)";

const COLUMNS: &str = "seq, id, title, version, created_at, updated_at, deleted_at, \
    render_version, size, body, html, cjk, owner_id, visibility, public_token, html_z";

/// One documents row, as both engines store it.
struct DocumentRow {
    seq: i64,
    id: String,
    title: String,
    version: i64,
    created_at: i64,
    updated_at: i64,
    deleted_at: Option<i64>,
    render_version: i64,
    size: i64,
    body: String,
    html: String,
    cjk: String,
    owner_id: Option<i64>,
    visibility: String,
    public_token: Option<String>,
    html_z: Option<Vec<u8>>,
}

impl quire::db::FromRow for DocumentRow {
    fn from_row(r: quire::db::Row) -> Result<Self, quire::db::Error> {
        Ok(Self {
            seq: r.try_get("seq")?,
            id: r.try_get("id")?,
            title: r.try_get("title")?,
            version: r.try_get("version")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
            deleted_at: r.try_get("deleted_at")?,
            render_version: r.try_get("render_version")?,
            size: r.try_get("size")?,
            body: r.try_get("body")?,
            html: r.try_get("html")?,
            cjk: r.try_get("cjk")?,
            owner_id: r.try_get("owner_id")?,
            visibility: r.try_get("visibility")?,
            public_token: r.try_get("public_token")?,
            html_z: r.try_get("html_z")?,
        })
    }
}

/// Column-wise batch for one `INSERT ... SELECT FROM UNNEST(...)`.
#[derive(Default)]
struct Batch {
    seq: Vec<i64>,
    id: Vec<String>,
    title: Vec<String>,
    version: Vec<i64>,
    created_at: Vec<i64>,
    updated_at: Vec<i64>,
    deleted_at: Vec<Option<i64>>,
    render_version: Vec<i64>,
    size: Vec<i64>,
    body: Vec<String>,
    html: Vec<String>,
    cjk: Vec<String>,
    owner_id: Vec<Option<i64>>,
    visibility: Vec<String>,
    public_token: Vec<Option<String>>,
    html_z: Vec<Option<Vec<u8>>>,
    bytes: usize,
}

impl Batch {
    fn push(&mut self, r: DocumentRow) {
        self.bytes += r.body.len() + r.html.len() + r.html_z.as_ref().map_or(0, Vec::len);
        self.seq.push(r.seq);
        self.id.push(r.id);
        self.title.push(r.title);
        self.version.push(r.version);
        self.created_at.push(r.created_at);
        self.updated_at.push(r.updated_at);
        self.deleted_at.push(r.deleted_at);
        self.render_version.push(r.render_version);
        self.size.push(r.size);
        self.body.push(r.body);
        self.html.push(r.html);
        self.cjk.push(r.cjk);
        self.owner_id.push(r.owner_id);
        self.visibility.push(r.visibility);
        self.public_token.push(r.public_token);
        self.html_z.push(r.html_z);
    }

    async fn insert(self, pool: &PgPool) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO documents (seq, id, title, version, created_at, updated_at,
                 deleted_at, render_version, size, body, html, cjk, owner_id, visibility,
                 public_token, html_z)
             SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::bigint[],
                 $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],
                 $10::text[], $11::text[], $12::text[], $13::bigint[], $14::text[],
                 $15::text[], $16::bytea[])",
        )
        .bind(self.seq)
        .bind(self.id)
        .bind(self.title)
        .bind(self.version)
        .bind(self.created_at)
        .bind(self.updated_at)
        .bind(self.deleted_at)
        .bind(self.render_version)
        .bind(self.size)
        .bind(self.body)
        .bind(self.html)
        .bind(self.cjk)
        .bind(self.owner_id)
        .bind(self.visibility)
        .bind(self.public_token)
        .bind(self.html_z)
        .execute(pool)
        .await
        .context("inserting a batch into PostgreSQL")?;
        Ok(())
    }
}

/// Creates the bench database when missing and opens a pool of `size` on it.
async fn connect(s: &Settings, size: u32) -> anyhow::Result<PgPool> {
    let opts = PgConnectOptions::from_str(&s.pg_url).context("QUIRE_LTR_PG_URL")?;
    let name = opts.get_database().unwrap_or("quire_ltr").to_owned();
    let admin = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(opts.clone().database("postgres"))
        .await
        .with_context(|| format!("connecting to PostgreSQL at {}", s.pg_url))?;
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&admin)
            .await?;
    if !exists {
        let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', "\"\""));
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&admin)
            .await?;
    }
    admin.close().await;
    Ok(PgPoolOptions::new()
        .max_connections(size)
        .connect_with(opts.database(&name))
        .await?)
}

/// Copies every row of quire's documents table into PostgreSQL, unless the two
/// already hold the same number of rows.
pub async fn load(s: &Settings) -> anyhow::Result<()> {
    let db = Db::open(&s.config()).await?;
    let pool = connect(s, 2).await?;
    sqlx::query(SCHEMA).execute(&pool).await?;
    // A copy made before pages were compressed lacks the column: made again.
    sqlx::query("ALTER TABLE documents ADD COLUMN IF NOT EXISTS html_z bytea")
        .execute(&pool)
        .await?;
    let count = "SELECT count(*) + count(html_z) FROM documents";
    let want: i64 = quire::db::query_scalar(count).fetch_one(&db.read).await?;
    let have: i64 = sqlx::query_scalar(count).fetch_one(&pool).await?;
    if have == want {
        println!("PostgreSQL already holds every document and page ({have} rows and pages), kept");
    } else {
        println!("loading documents into PostgreSQL ({want} rows and pages; had {have})");
        sqlx::query("TRUNCATE documents").execute(&pool).await?;
        let started = std::time::Instant::now();
        let mut rows = quire::db::query_as::<DocumentRow>(format!(
            "SELECT {COLUMNS} FROM documents ORDER BY seq"
        ))
        .fetch(&db.read)
        .await?;
        let (mut batch, mut done, mut bytes) = (Batch::default(), 0usize, 0usize);
        while let Some(row) = rows.try_next().await? {
            batch.push(row);
            if batch.bytes >= 16 << 20 || batch.seq.len() >= 2000 {
                done += batch.seq.len();
                bytes += batch.bytes;
                std::mem::take(&mut batch).insert(&pool).await?;
                if done % 20_000 < 2000 {
                    println!("  {done}/{want} rows, {} MB", bytes >> 20);
                }
            }
        }
        if !batch.seq.is_empty() {
            batch.insert(&pool).await?;
        }
        println!(
            "loaded in {:.0} s; vacuum and analyze",
            started.elapsed().as_secs_f64()
        );
    }
    // Sets hint bits and the visibility map now, so the first reads do not write.
    sqlx::query("VACUUM (ANALYZE) documents")
        .execute(&pool)
        .await?;
    sqlx::query("CHECKPOINT").execute(&pool).await?;
    let size: String = sqlx::query_scalar(
        "SELECT pg_size_pretty(pg_total_relation_size('documents')) || ' (heap '
             || pg_size_pretty(pg_relation_size('documents')) || ', toast '
             || pg_size_pretty(pg_total_relation_size(reltoastrelid)) || ')'
         FROM pg_class WHERE relname = 'documents'",
    )
    .fetch_one(&pool)
    .await?;
    println!("PostgreSQL documents table: {size}");
    pool.close().await;
    db.close().await;
    Ok(())
}

/// Random reads by id through a pool of one connection; sqlx prepares the
/// statement once per connection and reuses it.
pub async fn read(s: &Settings) -> anyhow::Result<()> {
    let ids = load_ids(s)?;
    let pool = connect(s, 1).await?;
    let settings: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, current_setting(name) FROM pg_settings
         WHERE name IN ('shared_buffers', 'effective_cache_size', 'default_toast_compression')",
    )
    .fetch_all(&pool)
    .await?;
    println!("postgres settings: {settings:?}");
    let conn = sea_orm::SqlxPostgresConnector::from_sqlx_postgres_pool(pool.clone());
    run_reads(s, "postgres", &ids, |id| {
        let conn = conn.clone();
        async move {
            let doc: Document = quire::db::query_as(
                "SELECT seq, id, title, body, html, html_z, version, created_at, updated_at,
                        deleted_at, owner_id, visibility, public_token, render_version,
                        3::bigint AS access
                 FROM documents WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(&conn)
            .await?
            .context("a document in ids.tsv is missing from PostgreSQL")?;
            Ok(doc.body.len() + doc.html.len())
        }
    })
    .await?;
    pool.close().await;
    Ok(())
}
