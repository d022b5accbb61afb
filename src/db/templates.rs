//! Templates: documents marked as starting points, and the template a space or
//! a folder of it starts its new documents from.

use crate::db::documents::visible;
use crate::db::{Conn, Error};

/// A template as the New page offers it.
#[derive(Debug, Clone)]
pub struct TemplateRow {
    pub id: String,
    pub title: String,
    pub space_name: Option<String>,
    pub folder: String,
}
crate::db::from_row!(TemplateRow {
    id,
    title,
    space_name,
    folder
});

/// Whether document `doc_seq` is a template.
pub async fn is_template(ex: &impl Conn, doc_seq: i64) -> Result<bool, Error> {
    let found: Option<i64> = crate::db::query_scalar("SELECT 1 FROM templates WHERE doc_seq = $1")
        .bind(doc_seq)
        .fetch_optional(ex)
        .await?;
    Ok(found.is_some())
}

/// Marks document `doc_seq` a template, or not (which also ends it being any
/// place's default).
pub async fn mark(ex: &impl Conn, doc_seq: i64, by: i64, on: bool, now: i64) -> Result<(), Error> {
    let q = if on {
        crate::db::query(
            "INSERT INTO templates (doc_seq, marked_by, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (doc_seq) DO NOTHING",
        )
        .bind(doc_seq)
        .bind(by)
        .bind(now)
    } else {
        crate::db::query("DELETE FROM templates WHERE doc_seq = $1").bind(doc_seq)
    };
    q.execute(ex).await?;
    Ok(())
}

/// At most `most` live templates `viewer` may read, by title.
pub async fn offered(ex: &impl Conn, viewer: i64, most: i64) -> Result<Vec<TemplateRow>, Error> {
    let sql = format!(
        "SELECT d.id, d.title, sp.name AS space_name, d.folder
         FROM templates AS t JOIN documents AS d ON d.seq = t.doc_seq
         LEFT JOIN spaces AS sp ON sp.id = d.space_id
         WHERE d.deleted_at IS NULL AND {}
         ORDER BY d.title, d.id LIMIT $2",
        visible("$1")
    );
    crate::db::query_as::<TemplateRow>(sql)
        .bind(viewer)
        .bind(most)
        .fetch_all(ex)
        .await
}

/// Makes template `doc_seq` the one new documents in space `space_id`'s folder
/// `folder` ('' the whole space) start from, or stops it being that.
pub async fn set_default(
    ex: &impl Conn,
    (space_id, folder): (i64, &str),
    doc_seq: i64,
    (by, on): (i64, bool),
    now: i64,
) -> Result<(), Error> {
    let q = if on {
        crate::db::query(
            "INSERT INTO place_templates (space_id, folder, doc_seq, set_by, created_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (space_id, folder) DO UPDATE
             SET doc_seq = excluded.doc_seq, set_by = excluded.set_by,
                 created_at = excluded.created_at",
        )
        .bind(space_id)
        .bind(folder)
        .bind(doc_seq)
        .bind(by)
        .bind(now)
    } else {
        crate::db::query(
            "DELETE FROM place_templates WHERE space_id = $1 AND folder = $2 AND doc_seq = $3",
        )
        .bind(space_id)
        .bind(folder)
        .bind(doc_seq)
    };
    q.execute(ex).await?;
    Ok(())
}

/// The places (folder paths of space `space_id`, '' the space itself) whose
/// new documents start from template `doc_seq`.
pub async fn defaults_of(
    ex: &impl Conn,
    space_id: i64,
    doc_seq: i64,
) -> Result<Vec<String>, Error> {
    crate::db::query_scalar(
        "SELECT folder FROM place_templates WHERE space_id = $1 AND doc_seq = $2 ORDER BY folder",
    )
    .bind(space_id)
    .bind(doc_seq)
    .fetch_all(ex)
    .await
}

/// The id of the live template a new document in space `space_id` starts
/// from: the one named for the deepest of `folders` (the folder and those
/// above it, '' the space), while it is still in that space.
pub async fn default_for(
    ex: &impl Conn,
    space_id: i64,
    folders: &[String],
) -> Result<Option<String>, Error> {
    if folders.is_empty() {
        return Ok(None);
    }
    let marks: Vec<String> = (0..folders.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "SELECT d.id FROM place_templates AS pt
         JOIN documents AS d ON d.seq = pt.doc_seq
         WHERE pt.space_id = $1 AND d.space_id = $1 AND d.deleted_at IS NULL
           AND pt.folder IN ({})
         ORDER BY length(pt.folder) DESC LIMIT 1",
        marks.join(", ")
    );
    let mut q = crate::db::query_scalar::<String>(sql).bind(space_id);
    for f in folders {
        q = q.bind(f.clone());
    }
    q.fetch_optional(ex).await
}
