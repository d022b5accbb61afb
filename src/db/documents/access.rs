//! Who may see a document, as SQL: the viewer's access level computed in the
//! query, read back as an `Access`, and the conditions listings and search filter
//! by. The rules themselves (who needs which level) are the domain's, in
//! `documents::access`.

use std::sync::LazyLock;

use super::stored_texts::{self, StoredTexts};
use super::{COLUMNS, Document, PAGELESS_COLUMNS};

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
    pub(crate) fn from_level(n: i64) -> Self {
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
/// the viewer's id as `$2`; no viewer is quire itself. The highest of what
/// grants it: owning it, no owner, "everyone signed in", a share with the viewer
/// or one of their groups, the viewer's role in its space (through themselves or
/// a group; manage edits). In a space that reviews changes, what would let
/// someone edit lets them read (and suggest) unless they manage the space or
/// own the document.
static ACCESS_SQL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "CASE
    WHEN $2 IS NULL OR owner_id = $2 THEN 3
    WHEN documents.space_id IN (SELECT rv.id FROM spaces rv WHERE rv.review_required = 1)
      AND documents.space_id NOT IN {spaces_manage}
      AND (owner_id IS NULL OR visibility <> 'private' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2)
        OR {group_read} OR documents.space_id IN {spaces_read}) THEN 1
    WHEN owner_id IS NULL OR visibility = 'edit' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2 AND s.can_edit = 1)
      OR {group_edit} OR documents.space_id IN {spaces_edit} THEN 2
    WHEN visibility = 'read' OR EXISTS (SELECT 1 FROM document_shares s
        WHERE s.doc_seq = documents.seq AND s.user_id = $2)
      OR {group_read} OR documents.space_id IN {spaces_read} THEN 1
    ELSE 0 END",
        group_edit = group_shared("documents", "$2", true),
        group_read = group_shared("documents", "$2", false),
        spaces_edit = spaces_of("$2", 2),
        spaces_read = spaces_of("$2", 1),
        spaces_manage = spaces_of("$2", 3),
    )
});

/// The ids of the spaces where `viewer` has at least `role`, themselves or
/// through a group: a subquery that does not depend on the row, so a listing
/// finds them once. Two lookups by index (the person's memberships, their
/// groups'); one `OR` of the two scanned every membership.
pub(crate) fn spaces_of(viewer: &str, role: i64) -> String {
    format!(
        "(SELECT m.space_id FROM space_members m WHERE m.user_id = {viewer} AND m.role >= {role}
          UNION ALL SELECT m.space_id FROM group_members gm
            JOIN space_members m ON m.group_id = gm.group_id
          WHERE gm.user_id = {viewer} AND m.role >= {role})"
    )
}

/// Whether document `doc` is shared with a group `viewer` is in (to edit, when
/// `edit`). The `+` keeps SQLite on the primary key (the document's group
/// shares) instead of one index lookup per group of the viewer's.
fn group_shared(doc: &str, viewer: &str, edit: bool) -> String {
    format!(
        "EXISTS (SELECT 1 FROM document_group_shares gs WHERE gs.doc_seq = {doc}.seq{can_edit}
            AND +gs.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = {viewer}))",
        can_edit = if edit { " AND gs.can_edit = 1" } else { "" }
    )
}

/// The documents shared with `viewer` or a group they are in: like
/// `spaces_of`, a subquery that does not depend on the row, found once per
/// listing (two tests per row cost a list of 200 a tenth of a millisecond).
fn shared_with(viewer: &str) -> String {
    format!(
        "(SELECT s.doc_seq FROM document_shares s WHERE s.user_id = {viewer}
          UNION ALL SELECT gs.doc_seq FROM group_members gm
            JOIN document_group_shares gs ON gs.group_id = gm.group_id
          WHERE gm.user_id = {viewer})"
    )
}

/// Who else sees a document and whose it is, as a list shows them: how many
/// people and groups it is shared with by name (only on the viewer's own, or
/// ownerless, documents: the only ones whose row says it), and its owner's
/// name (only on others'). A list's spaces' names come from the viewer's
/// spaces, which the list page keeps.
pub(crate) fn list_columns(doc: &str, viewer: &str) -> String {
    format!(
        "CASE WHEN {doc}.owner_id IS NULL OR {doc}.owner_id = {viewer} THEN
            (SELECT COUNT(*) FROM document_shares sw WHERE sw.doc_seq = {doc}.seq)
            + (SELECT COUNT(*) FROM document_group_shares gw WHERE gw.doc_seq = {doc}.seq)
          ELSE 0 END AS shared_with,
         CASE WHEN {doc}.owner_id = {viewer} THEN NULL
           ELSE (SELECT username FROM users ow WHERE ow.id = {doc}.owner_id) END AS owner_name"
    )
}

/// Who else sees a document, as columns: how many people and groups it is
/// shared with by name, its owner's name, its space's name and how many people
/// are members of that space; `doc` names the documents table or its alias.
pub(crate) fn sharing_columns(doc: &str) -> String {
    format!(
        "(SELECT COUNT(*) FROM document_shares sw WHERE sw.doc_seq = {doc}.seq)
          + (SELECT COUNT(*) FROM document_group_shares gw WHERE gw.doc_seq = {doc}.seq) AS shared_with,
         (SELECT username FROM users ow WHERE ow.id = {doc}.owner_id) AS owner_name,
         (SELECT name FROM spaces sp WHERE sp.id = {doc}.space_id) AS space_name"
    )
}

/// A `WHERE` condition for listings and search: rows the viewer (`viewer_param`,
/// the caller's placeholder) may read. `d` is the documents alias.
pub fn visible(viewer_param: &str) -> String {
    format!(
        "({v} IS NULL OR d.owner_id IS NULL OR d.owner_id = {v} OR d.visibility <> 'private'
          OR d.space_id IN {spaces} OR d.seq IN {shared})",
        v = viewer_param,
        spaces = spaces_of(viewer_param, 1),
        shared = shared_with(viewer_param),
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
        "{}, {} AS access, {}, {}, {}, {}",
        *COLUMNS,
        ACCESS_SQL.replace("$2", viewer_expr),
        sharing_columns("documents"),
        linked_column("documents"),
        space_people_column("documents"),
        talk_column("documents")
    )
}

/// `talk` (`Document::talk`), what the page's discussion needs to know before
/// it asks: 1 when `doc` has comments, 2 when it has open suggestions, 4 when
/// its space keeps commenting to editors; so that a page nobody discussed
/// asks nothing more.
fn talk_column(doc: &str) -> String {
    format!(
        "CAST(CASE WHEN EXISTS (SELECT 1 FROM comments AS tc WHERE tc.doc_seq = {doc}.seq)
                   THEN 1 ELSE 0 END
            + CASE WHEN EXISTS (SELECT 1 FROM suggestions AS ts
                                WHERE ts.doc_seq = {doc}.seq AND ts.state = 'open')
                   THEN 2 ELSE 0 END
            + CASE WHEN EXISTS (SELECT 1 FROM spaces AS tsp
                                WHERE tsp.id = {doc}.space_id AND tsp.comment_role >= 2)
                   THEN 4 ELSE 0 END AS BIGINT) AS talk"
    )
}

/// `space_people`: how many people are members of `doc`'s space, themselves
/// or through a group (a document's page says it).
fn space_people_column(doc: &str) -> String {
    format!(
        "(SELECT count(*) FROM (SELECT m.user_id AS u FROM space_members m
              WHERE m.space_id = {doc}.space_id AND m.user_id IS NOT NULL
            UNION SELECT gm.user_id FROM space_members m JOIN group_members gm ON gm.group_id = m.group_id
              WHERE m.space_id = {doc}.space_id) p) AS space_people"
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
            "SELECT {}, {} AS access, {}, {}, {} FROM documents WHERE id = $1",
            *COLUMNS,
            *ACCESS_SQL,
            sharing_columns("documents"),
            linked_column("documents"),
            space_people_column("documents")
        )
    });
    by_id(ex, &SQL, id, viewer).await
}

/// A document by id with `viewer`'s access level, as `find_with_access` reads
/// it, for a save: its text and version, not its page (which a save replaces,
/// and which would be decompressed for nothing), nor who else can read it or
/// what links to it (three subqueries a save never shows). A save read the
/// whole of it first: perf had that read at 4 % of a server's time under
/// `cargo bench --bench saves`, the page's decompression half of it. With it,
/// what its stored texts say of the text hashed `new_text` and of the latest
/// revision's, so that the save's revision needs no look-up of its own.
pub async fn find_text_with_access(
    ex: &impl crate::db::Conn,
    id: &str,
    viewer: Option<i64>,
    new_text: Vec<u8>,
) -> Result<Option<(Document, StoredTexts)>, crate::db::Error> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT {}, {} AS access, {} FROM documents WHERE id = $1",
            *PAGELESS_COLUMNS,
            *ACCESS_SQL,
            stored_texts::columns("documents", "$3")
        )
    });
    let found = crate::db::query_as::<crate::db::Row>(SQL.as_str())
        .bind(id)
        .bind(viewer)
        .bind(new_text.clone())
        .fetch_optional(ex)
        .await?;
    let Some(row) = found else {
        return Ok(None);
    };
    let stored = StoredTexts::from_row(&row, new_text)?;
    Ok(Some((crate::db::FromRow::from_row(row)?, stored)))
}

/// Runs one of the statements above: `$1` the id, `$2` the viewer.
async fn by_id(
    ex: &impl crate::db::Conn,
    sql: &'static str,
    id: &str,
    viewer: Option<i64>,
) -> Result<Option<Document>, crate::db::Error> {
    crate::db::query_as::<Document>(sql)
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
