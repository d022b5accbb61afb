//! Statements on the `documents` table itself. Each takes a connection or the
//! caller's transaction; the caller decides what commits together.

use std::sync::LazyLock;

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::listing::{Listing, Owner, Sort};
use super::{
    COLUMNS, Document, FIELD_VALUES, Fields, PackedHtml, Summary, access, bind_fields,
    fields_insert, fields_set,
};
use crate::db::Conn;
use crate::db::entity::documents::{self, Column};

/// A new document's row, as the domain made it.
pub struct NewRow<'a> {
    pub id: &'a str,
    pub fields: &'a Fields,
    pub html: &'a PackedHtml,
    pub render_version: i64,
    /// The text the CJK index reads (see `documents::cjk`).
    pub cjk: &'a str,
    pub owner: Option<i64>,
    /// Its space; none: the owner's personal space.
    pub space: Option<i64>,
    pub now: i64,
}

pub async fn insert(conn: &impl Conn, row: NewRow<'_>) -> Result<Document, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let (columns, values) = fields_insert(10);
        format!(
            "INSERT INTO documents
                 (id, html, html_z, render_version, version, created_at, updated_at, cjk,
                  owner_id, links, space_id, aliases, {columns})
             VALUES ($1, '', $2, $3, 1, $4, $4, $5, $6, $7, $8, $9, {values})
             RETURNING {}",
            *COLUMNS
        )
    });
    let query = crate::db::query_as(SQL.as_str())
        .bind(row.id)
        .bind(row.html.bytes())
        .bind(row.render_version)
        .bind(row.now)
        .bind(row.cjk)
        .bind(row.owner)
        .bind(row.html.links())
        .bind(row.space)
        .bind(row.html.aliases());
    bind_fields(query, row.fields).fetch_one(conn).await
}

/// Stores HTML rendered after the fact (an import that left rendering for later,
/// or a new renderer), unless the document changed meanwhile.
pub async fn set_rendered(
    conn: &impl Conn,
    seq: i64,
    version: i64,
    html: &PackedHtml,
    render_version: i64,
) -> Result<(), crate::db::Error> {
    documents::Entity::update_many()
        .col_expr(Column::Html, Expr::value(""))
        .col_expr(Column::HtmlZ, Expr::value(html.bytes().map(<[u8]>::to_vec)))
        .col_expr(Column::RenderVersion, Expr::value(render_version))
        .col_expr(Column::Links, Expr::value(html.links()))
        .col_expr(Column::Aliases, Expr::value(html.aliases()))
        .filter(Column::Seq.eq(seq))
        .filter(Column::Version.eq(version))
        .exec(conn.sea())
        .await?;
    Ok(())
}

/// The next version's text, as the domain made it.
pub struct NextVersion<'a> {
    pub fields: &'a Fields,
    pub html: &'a PackedHtml,
    pub render_version: i64,
    pub cjk: &'a str,
    pub now: i64,
}

/// The `SET` of a next version: `$1`–`$5` its own values, `$6` and `$7` left
/// for the `WHERE`, `$8` its aliases, its fields from `$9` on, and `$AFTER_NEXT` on for the
/// `WHERE` too. `updated_at` never goes back.
pub(super) static SET_NEXT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SET html = '', html_z = $1, render_version = $2, version = version + 1,
            updated_at = CASE WHEN $3 > updated_at THEN $3 ELSE updated_at + 1 END, cjk = $4,
            links = $5, aliases = $8, {}",
        fields_set(9)
    )
});

/// The first placeholder after a next version's values.
pub(super) const AFTER_NEXT: usize = 9 + FIELD_VALUES;

/// `sql` (an `UPDATE … SET_NEXT WHERE …`) with the next version's values bound
/// and `$6`, `$7` bound to `id` and `version`.
pub(super) fn next_version(
    sql: &'static str,
    id: &str,
    version: i64,
    next: NextVersion<'_>,
) -> crate::db::Query<crate::db::sql::As<Document>> {
    let query = crate::db::query_as(sql)
        .bind(next.html.bytes())
        .bind(next.render_version)
        .bind(next.now)
        .bind(next.cjk)
        .bind(next.html.links())
        .bind(id)
        .bind(version)
        .bind(next.html.aliases());
    bind_fields(query, next.fields)
}

/// Writes the next version of `current`. The `version` guard makes a lost race
/// impossible even if a caller skipped the check.
pub async fn update(
    conn: &impl Conn,
    current: &Document,
    next: NextVersion<'_>,
) -> Result<Document, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "UPDATE documents {} WHERE id = $6 AND version = $7 RETURNING {}",
            *SET_NEXT, *COLUMNS
        )
    });
    next_version(SQL.as_str(), &current.id, current.version, next)
        .fetch_one(conn)
        .await
}

/// Moves a document into (`Some(time)`) or out of (`None`) the trash. False when
/// there is no such document in the state it would leave.
pub async fn set_deleted(
    conn: &impl Conn,
    id: &str,
    deleted_at: Option<i64>,
) -> Result<bool, crate::db::Error> {
    let change = documents::Entity::update_many()
        .col_expr(Column::DeletedAt, Expr::value(deleted_at))
        .filter(Column::Id.eq(id));
    let change = match deleted_at {
        Some(_) => change.filter(Column::DeletedAt.is_null()),
        None => change.filter(Column::DeletedAt.is_not_null()),
    };
    let done = change.exec(conn.sea()).await?;
    Ok(done.rows_affected == 1)
}

/// Deletes the viewer's documents in the trash for good; how many.
/// A document in the trash, as an event of its deletion names it.
#[derive(Debug, Clone)]
pub struct Gone {
    pub id: String,
    pub title: String,
    pub space_id: Option<i64>,
    pub owner_id: Option<i64>,
}
crate::db::from_row!(Gone {
    id,
    title,
    space_id,
    owner_id
});

/// What `purge_trash` would delete for `viewer`.
pub async fn trash_contents(
    conn: &impl Conn,
    viewer: Option<i64>,
) -> Result<Vec<Gone>, crate::db::Error> {
    crate::db::query_as::<Gone>(format!(
        "SELECT d.id, d.title, d.space_id, d.owner_id FROM documents AS d
         WHERE d.deleted_at IS NOT NULL AND {} ORDER BY d.seq",
        access::owned("$1")
    ))
    .bind(viewer)
    .fetch_all(conn)
    .await
}

pub async fn purge_trash(conn: &impl Conn, viewer: Option<i64>) -> Result<u64, crate::db::Error> {
    let done = crate::db::query(format!(
        "DELETE FROM documents AS d WHERE d.deleted_at IS NOT NULL AND {}",
        access::owned("$1")
    ))
    .bind(viewer)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Live documents the viewer may read, in the listing's order, narrowed to its
/// owner, folder and tag; each row with its folder and tags.
pub async fn list_live(
    ex: &impl Conn,
    page: i64,
    size: i64,
    viewer: Option<i64>,
    listing: &Listing,
) -> Result<Vec<Summary>, crate::db::Error> {
    let direction = if listing.descending() { "DESC" } else { "ASC" };
    let order = match listing.sort {
        Sort::Updated => format!("updated_at {direction}, id"),
        Sort::Created => format!("created_at {direction}, id"),
        Sort::Title => format!("lower(title) {direction}, id"),
    };
    let (narrow, values) = narrowed(listing, 4, "$3");
    let sql = format!(
        "SELECT id, title, size, updated_at, deleted_at, owner_id, visibility, public_token, folder, space_id,
                (SELECT string_agg(t.tag, ',') FROM document_tags AS t WHERE t.doc_seq = d.seq)
                    AS tags, {}
         FROM documents AS d WHERE deleted_at IS NULL AND {}{}{narrow}
         ORDER BY {order} LIMIT $1 OFFSET $2",
        access::list_columns("d", "$3"),
        access::visible("$3"),
        owned_by("$3", listing.owner),
    );
    let mut query = crate::db::query_as(sql)
        .bind(size)
        .bind((page - 1).saturating_mul(size))
        .bind(viewer);
    for value in values {
        query = query.bind(value);
    }
    query.fetch_all(ex).await
}

/// How many live documents the viewer may read, narrowed as `list_live` is.
pub async fn count_live(
    ex: &impl Conn,
    viewer: Option<i64>,
    listing: &Listing,
) -> Result<i64, crate::db::Error> {
    let (narrow, values) = narrowed(listing, 2, "$1");
    let sql = format!(
        "SELECT count(*) FROM documents AS d WHERE deleted_at IS NULL AND {}{}{narrow}",
        access::visible("$1"),
        owned_by("$1", listing.owner),
    );
    let mut query = crate::db::query_as(sql).bind(viewer);
    for value in values {
        query = query.bind(value);
    }
    let (n,): (i64,) = query.fetch_one(ex).await?;
    Ok(n)
}

/// The space, folder and tag filters as further `WHERE` conditions, their
/// placeholders numbered from `$first` (the viewer's id is `viewer`), and the
/// values to bind to them in order.
fn narrowed(listing: &Listing, first: usize, viewer: &str) -> (String, Vec<String>) {
    let mut sql = String::new();
    let mut values = Vec::new();
    if let Some(space) = listing.space {
        sql.push_str(" AND ");
        sql.push_str(&space.condition(viewer));
    }
    if let Some(folder) = listing.folder.as_deref().filter(|f| !f.is_empty()) {
        let under = format!("{folder}/");
        let n = first + values.len();
        sql.push_str(" AND ");
        sql.push_str(&super::places::in_folder(
            "d.folder",
            &format!("${n}"),
            &format!("${}", n + 1),
        ));
        values.push(folder.to_owned());
        values.push(under);
    }
    if let Some(tag) = &listing.tag {
        sql.push_str(" AND ");
        sql.push_str(&super::places::has_tag(&format!(
            "${}",
            first + values.len()
        )));
        values.push(tag.clone());
    }
    (sql, values)
}

/// The owner filter as a further `WHERE` condition (`viewer` is a placeholder).
fn owned_by(viewer: &str, owner: Option<Owner>) -> String {
    match owner {
        None => String::new(),
        Some(Owner::Me) => format!(" AND d.owner_id = {viewer}"),
        // What reaches the viewer other than through their own spaces.
        Some(Owner::Shared) => format!(
            " AND (d.owner_id IS NULL OR d.owner_id <> {viewer})
              AND (d.space_id IS NULL OR d.space_id NOT IN {})",
            access::spaces_of(viewer, 1)
        ),
    }
}

/// The viewer's documents in the trash, most recently deleted first.
pub async fn list_trash(
    ex: &impl Conn,
    page: i64,
    size: i64,
    viewer: Option<i64>,
) -> Result<Vec<Summary>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT id, title, size, updated_at, deleted_at
             FROM documents AS d WHERE deleted_at IS NOT NULL AND {}
             ORDER BY deleted_at DESC, id LIMIT $1 OFFSET $2",
            access::owned("$3")
        )
    });
    crate::db::query_as(SQL.as_str())
        .bind(size + 1)
        .bind((page - 1).saturating_mul(size))
        .bind(viewer)
        .fetch_all(ex)
        .await
}

/// A live document by its public link token.
pub async fn find_public(
    ex: &impl Conn,
    token: &str,
) -> Result<Option<Document>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT {} FROM documents WHERE public_token = $1 AND deleted_at IS NULL",
            *COLUMNS
        )
    });
    crate::db::query_as(SQL.as_str())
        .bind(token)
        .fetch_optional(ex)
        .await
}

/// How many documents are live and how many in the trash, everyone's.
pub async fn counts(ex: &impl Conn) -> Result<(i64, i64), crate::db::Error> {
    crate::db::query_as(
        "SELECT count(*) FILTER (WHERE deleted_at IS NULL), \
                count(*) FILTER (WHERE deleted_at IS NOT NULL) \
         FROM documents",
    )
    .fetch_one(ex)
    .await
}
