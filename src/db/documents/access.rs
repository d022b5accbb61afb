//! Who may see a document, as SQL: the viewer's access level computed in the
//! query, read back as an `Access`, and the conditions listings and search filter
//! by. The rules themselves (who needs which level) are the domain's, in
//! `documents::access`.

use std::sync::LazyLock;

use super::{COLUMNS, Document};

/// A viewer's access to a document, as `ACCESS_SQL` computes it: each level
/// allows everything the ones below it do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    /// Not even to read: the document is reported as missing.
    #[default]
    None = 0,
    Read = 1,
    Edit = 2,
    /// Delete, restore, share, publish.
    Own = 3,
}

impl Access {
    /// The level from the number a query computed (`ACCESS_SQL`); the one
    /// place that number is read. A row read without it reads as `None`.
    pub(super) fn from_level(n: i64) -> Self {
        match n {
            3.. => Self::Own,
            2 => Self::Edit,
            1 => Self::Read,
            _ => Self::None,
        }
    }

    pub fn may_read(self) -> bool {
        self >= Self::Read
    }

    pub fn may_edit(self) -> bool {
        self >= Self::Edit
    }

    /// The owner's acts: delete, restore, share, publish.
    pub fn may_own(self) -> bool {
        self >= Self::Own
    }
}

/// The viewer's access to `documents` rows (3 own, 2 edit, 1 read, 0 none), with
/// the viewer's id as `$2`; no viewer is quire itself.
const ACCESS_SQL: &str = "CASE
    WHEN $2 IS NULL OR owner_id = $2 THEN 3
    WHEN owner_id IS NULL OR visibility = 'edit' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2 AND s.can_edit = 1) THEN 2
    WHEN visibility = 'read' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2) THEN 1
    ELSE 0 END";

/// Who else sees a document, as two columns: how many people it is shared with
/// by name, and its owner's name; `doc` names the documents table or its alias.
pub(crate) fn sharing_columns(doc: &str) -> String {
    format!(
        "(SELECT COUNT(*) FROM document_shares sw WHERE sw.doc_seq = {doc}.seq) AS shared_with,
         (SELECT username FROM users ow WHERE ow.id = {doc}.owner_id) AS owner_name"
    )
}

/// A `WHERE` condition for listings and search: rows the viewer (`viewer_param`,
/// the caller's placeholder) may read. `d` is the documents alias.
pub fn visible(viewer_param: &str) -> String {
    format!(
        "({v} IS NULL OR d.owner_id IS NULL OR d.owner_id = {v} OR d.visibility <> 'private'
          OR EXISTS (SELECT 1 FROM document_shares s WHERE s.doc_seq = d.seq AND s.user_id = {v}))",
        v = viewer_param
    )
}

/// Rows the viewer owns (the trash shows, and emptying it deletes, only these).
pub fn owned(viewer_param: &str) -> String {
    format!("({v} IS NULL OR d.owner_id = {v})", v = viewer_param)
}

/// The viewer's access level (as `ACCESS_SQL`) with the viewer's id as
/// `viewer_param`, for a statement on `documents` itself.
pub(crate) fn level(viewer_param: &str) -> String {
    ACCESS_SQL.replace("$2", viewer_param)
}

/// Columns of a document and the viewer's `access` to it, for a query that joins
/// `documents` to a row naming the viewer's id as `viewer_expr` (one round trip
/// for the session and the page, see `db::accounts::sessions::find_live_with_document`).
pub(crate) fn access_for(viewer_expr: &str) -> String {
    format!(
        "{}, {} AS access, {}, {}",
        *COLUMNS,
        ACCESS_SQL.replace("$2", viewer_expr),
        sharing_columns("documents"),
        linked_column("documents")
    )
}

/// `linked`: whether another document has a link that may lead to `doc`, for
/// some reader (`Document::linked`), so that a page without backlinks asks
/// nothing more.
fn linked_column(doc: &str) -> String {
    format!(
        "CAST(CASE WHEN EXISTS (SELECT 1 FROM document_link_ends AS l
                                WHERE l.to_seq = {doc}.seq AND l.from_seq <> {doc}.seq)
                   THEN 1 ELSE 0 END AS BIGINT) AS linked"
    )
}

/// A document by id with `viewer`'s access level (`Document::access`)
/// computed, and whether another document links to it (`Document::linked`:
/// a page without backlinks then asks nothing more).
pub async fn find_with_access(
    ex: &impl crate::db::Conn,
    id: &str,
    viewer: Option<i64>,
) -> Result<Option<Document>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT {}, {ACCESS_SQL} AS access, {}, {} FROM documents WHERE id = $1",
            *COLUMNS,
            sharing_columns("documents"),
            linked_column("documents")
        )
    });
    crate::db::query_as::<Document>(SQL.as_str())
        .bind(id)
        .bind(viewer)
        .fetch_optional(ex)
        .await
}

#[cfg(test)]
mod tests {
    use super::Access;

    #[test]
    fn each_level_allows_the_ones_below_it() {
        let allows = |a: Access| (a.may_read(), a.may_edit(), a.may_own());
        assert_eq!(allows(Access::from_level(0)), (false, false, false));
        assert_eq!(allows(Access::from_level(1)), (true, false, false));
        assert_eq!(allows(Access::from_level(2)), (true, true, false));
        assert_eq!(allows(Access::from_level(3)), (true, true, true));
        assert_eq!(Access::from_level(-1), Access::None);
        assert_eq!(Access::default(), Access::None);
    }
}
