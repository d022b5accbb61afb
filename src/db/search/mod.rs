//! Search statements, one engine per file: FTS5 with bm25 on SQLite, `tsvector`
//! and pg_trgm on PostgreSQL. What to look for (the user's words cut into plain
//! terms, never syntax) and how hits are shown is decided above, in
//! `documents::search`; these take the terms as values and return rows of the
//! caller's shape (`id, title, updated_at, snippet`), best first.

use crate::db::documents::listing::InSpace;
use crate::db::documents::places;

pub mod attachments;
pub mod index_words;
pub mod postgres;
pub mod queue;
pub mod sqlite;
pub mod vocabulary;

/// Characters of a document's text a search scans for its first match: a
/// match further in shows the document's start.
pub const SCAN_CHARS: usize = 65_536;

/// Characters of each hit's text a search reads with the hit (one more, to
/// tell a cut text): a snippet is almost always cut from the start, and a
/// 64 KB text read whole for it cost more than ranking (50 hits: 8 ms of 10 ms
/// on the budget's corpus). The hits whose match lies further in are read
/// again together, up to `SCAN_CHARS` (`texts_start`).
pub const START_CHARS: usize = 8_192;

/// A live document's id and the start of its text.
#[derive(Debug)]
pub struct TextStart {
    pub id: String,
    pub text: String,
}
crate::db::from_row!(TextStart { id, text });

/// The first `chars` characters of the texts of the live documents `ids`
/// (hits the viewer was already found to read), in no particular order: one
/// query for several hits, where one query a hit cost a round trip each (for
/// a third to three quarters of the hits in large real documents).
pub async fn texts_start(
    ex: &impl crate::db::Conn,
    ids: &[&str],
    chars: i32,
) -> Result<Vec<TextStart>, crate::db::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "SELECT id, substr(body, 1, $1) AS text FROM documents
         WHERE deleted_at IS NULL AND id IN ({})",
        list.join(", ")
    );
    let mut q = crate::db::query_as(sql).bind(chars);
    for id in ids {
        q = q.bind(*id);
    }
    q.fetch_all(ex).await
}

/// The search's filters on `d`: the folder as `$5`, the folder with a slash
/// as `$6`, the tag as `$7`, the space as `$8` (0: the viewer's, `$4`,
/// personal space), the owner's name as `$9`, changed at or after `$10` and
/// before `$11` (milliseconds), each NULL for none (then the condition holds
/// without reading the row). PostgreSQL is told their types.
pub fn in_scope(postgres: bool) -> String {
    let (text, int) = if postgres {
        ("::text", "::bigint")
    } else {
        ("", "")
    };
    // The name as each engine's unique index on it reads it.
    let named = if postgres {
        "lower(username) = lower($9::text)"
    } else {
        "username = $9"
    };
    format!(
        "($5{text} IS NULL OR {}) AND ($7{text} IS NULL OR {})
          AND ($8{int} IS NULL OR d.space_id = $8{int}
               OR ($8{int} = 0 AND d.space_id IS NULL AND d.owner_id = $4))
          AND ($9{text} IS NULL OR d.owner_id IN (SELECT id FROM users WHERE {named}))
          AND ($10{int} IS NULL OR d.updated_at >= $10{int})
          AND ($11{int} IS NULL OR d.updated_at < $11{int})",
        places::in_folder("d.folder", "$5", "$6"),
        places::has_tag("$7")
    )
}

/// A search's filters; none by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    /// A tidied folder path.
    pub folder: Option<String>,
    pub tag: Option<String>,
    pub space: Option<InSpace>,
    /// The name of the person who made the documents.
    pub author: Option<String>,
    /// Last changed at or after this time (milliseconds since 1970).
    pub after: Option<i64>,
    /// Last changed before this time.
    pub before: Option<i64>,
}

impl Scope {
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }

    /// The space as the statements bind it (`$8`): its id, 0 for the viewer's
    /// personal space, NULL for none.
    pub fn space_value(&self) -> Option<i64> {
        self.space.map(InSpace::bound)
    }

    /// The values a search statement binds for its filters, in order: the
    /// folder, the folder with a slash (what every path under it starts with),
    /// the tag; NULL each where there is none.
    pub fn values(&self) -> [Option<String>; 3] {
        [
            self.folder.clone(),
            self.folder.as_ref().map(|f| format!("{f}/")),
            self.tag.clone(),
        ]
    }

    /// `q` with the viewer (`$4`) and the filters (`$5` to `$11`) bound, after
    /// its first three values.
    pub fn bind<S: crate::db::sql::Shape>(
        &self,
        q: crate::db::sql::Query<S>,
        viewer: Option<i64>,
    ) -> crate::db::sql::Query<S> {
        let mut q = q.bind(viewer);
        for value in self.values() {
            q = q.bind(value);
        }
        q.bind(self.space_value())
            .bind(self.author.clone())
            .bind(self.after)
            .bind(self.before)
    }
}

/// The newest documents `viewer` may read within the filters, last changed
/// first, none of which holds `unwanted` (a word-index query on the engine's
/// syntax, from the caller's translator) when there is one: a search of
/// filters (`tag:garden`) or exclusions (`-draft`) alone.
pub async fn listed<T: crate::db::FromRow>(
    db: &crate::db::Db,
    limit: i64,
    (viewer, scope): (Option<i64>, &Scope),
    unwanted: Option<&str>,
) -> Result<Vec<T>, crate::db::Error> {
    let postgres = db.backend == crate::db::Backend::Postgres;
    let not = match (unwanted.is_some(), postgres) {
        (false, _) => "AND $1 = ''",
        (true, false) => {
            "AND d.seq NOT IN (SELECT rowid FROM documents_words WHERE documents_words MATCH $1)"
        }
        (true, true) => {
            "AND NOT EXISTS (SELECT 1 FROM document_search s WHERE s.seq = d.seq
                 AND s.words @@ to_tsquery('simple', quire_fold($1)))"
        }
    };
    let sql = format!(
        "SELECT d.id, d.title, d.updated_at, '' AS snippet FROM documents d
         WHERE d.deleted_at IS NULL AND {} AND {} {not}
         ORDER BY d.updated_at DESC, d.id LIMIT $2 OFFSET $3",
        crate::db::documents::visible("$4"),
        in_scope(postgres)
    );
    let q = crate::db::query_as(sql)
        .bind(unwanted.unwrap_or(""))
        .bind(limit)
        .bind(0i64);
    scope.bind(q, viewer).fetch_all(&db.read).await
}
