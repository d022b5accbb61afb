//! What `quire migrate-to` copies: every table of the schema, parents before the
//! tables that refer to them, each column with its type, and the order rows are
//! read in (the same on both engines, so the two sides hash alike).

use crate::db::Backend;
pub use crate::db::entity::Kind;

/// A table as the copy handles it: its columns (from the entity), the order its
/// rows are read in and its identity column.
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<(&'static str, Kind)>,
    /// Columns that order the rows. For `revision_texts` it starts with `depth`:
    /// a text stored as a delta refers to its base in the same table, one level
    /// shallower, so inserting shallow texts first keeps every reference valid.
    pub order: &'static [&'static str],
    /// The identity column PostgreSQL must be moved past the copied keys.
    pub identity: Option<&'static str>,
}

/// Tables the copy leaves alone: `quire_settings` holds what quire writes from
/// its configuration at every start, the record of schema steps (`seaql_migrations`,
/// and `_sqlx_migrations` from older releases) is each engine's own, and SQLite's
/// `search_queue` (and PostgreSQL's `document_search`) is indexing work the
/// target makes for itself as rows arrive;
/// `document_tags`, `document_links`, `document_link_ends` and `document_aliases` are made by the
/// target's triggers from each document's tags and links (a link may lead to
/// each document copied with its title; one that followed a renamed document is
/// resolved again by title); `change_queue` holds changes the source has told or
/// will tell (the copy empties the target's, which its revisions' trigger fills);
/// `editing_now` is of the moment; the text of attached files
/// (`attachment_texts`, `attachment_pages`) is read again by the target.
pub const NOT_COPIED: &[&str] = &[
    "attachment_pages",
    "attachment_texts",
    "change_queue",
    "document_aliases",
    "document_search",
    "editing_now",
    "document_link_ends",
    "document_links",
    "document_tags",
    "quire_settings",
    "_sqlx_migrations",
    "seaql_migrations",
    "search_queue",
];

/// What is copied, parents before the tables that refer to them: (table, row
/// order, identity column). The columns come from the entities.
const COPIED: &[(&str, &[&str], Option<&str>)] = &[
    ("users", &["id"], Some("id")),
    ("identities", &["issuer", "subject"], None),
    ("spaces", &["id"], Some("id")),
    ("user_groups", &["id"], Some("id")),
    ("group_members", &["group_id", "user_id"], None),
    ("space_members", &["id"], Some("id")),
    ("documents", &["seq"], Some("seq")),
    ("document_group_shares", &["doc_seq", "group_id"], None),
    ("revision_texts", &["depth", "doc_seq", "hash"], None),
    ("revisions", &["doc_seq", "rev"], None),
    ("document_shares", &["doc_seq", "user_id"], None),
    ("sessions", &["token_hash"], None),
    ("api_tokens", &["id"], Some("id")),
    ("drafts", &["doc_seq", "user_id"], None),
    ("new_drafts", &["user_id", "key"], None),
    ("attachments", &["hash"], None),
    ("document_files", &["doc_seq", "name"], None),
    ("audit_log", &["id"], Some("id")),
    ("login_failures", &["key", "at"], None),
    ("invitations", &["token_hash"], None),
    ("document_watches", &["doc_seq", "user_id"], None),
    ("place_watches", &["space_id", "folder", "user_id"], None),
    ("notices", &["id"], Some("id")),
    ("mail_outbox", &["id"], Some("id")),
    ("comments", &["id"], Some("id")),
    ("webhooks", &["id"], Some("id")),
    ("webhook_deliveries", &["id"], Some("id")),
    ("suggestions", &["id"], Some("id")),
    ("templates", &["doc_seq"], None),
    ("place_templates", &["space_id", "folder"], None),
];

/// Every table the copy moves, in order; refuses an entity the list above
/// does not place (a new table must say where it goes).
pub fn tables() -> anyhow::Result<Vec<Table>> {
    let shapes = crate::db::entity::tables().map_err(anyhow::Error::msg)?;
    for shape in &shapes {
        anyhow::ensure!(
            NOT_COPIED.contains(&shape.name) || COPIED.iter().any(|(n, ..)| *n == shape.name),
            "the table {} is neither copied nor left alone by migrate-to",
            shape.name
        );
    }
    COPIED
        .iter()
        .map(|&(name, order, identity)| {
            let shape = shapes
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(|| anyhow::anyhow!("no entity for the table {name}"))?;
            Ok(Table {
                name: shape.name,
                columns: shape.columns.clone(),
                order,
                identity,
            })
        })
        .collect()
}

impl Table {
    fn kind(&self, column: &str) -> Option<Kind> {
        self.columns
            .iter()
            .find(|(name, _)| *name == column)
            .map(|(_, kind)| *kind)
    }

    fn column_list(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(name, _)| *name).collect();
        names.join(", ")
    }

    /// Every row in `order`. Text compares byte by byte on both engines (SQLite's
    /// BINARY, PostgreSQL's "C"), whatever the PostgreSQL database's collation.
    pub fn select(&self, backend: Backend) -> String {
        let order: Vec<String> = self
            .order
            .iter()
            .map(|c| match (self.kind(c), backend) {
                (Some(Kind::Text), Backend::Postgres) => format!("{c} COLLATE \"C\""),
                _ => (*c).to_owned(),
            })
            .collect();
        format!(
            "SELECT {} FROM {} ORDER BY {}",
            self.column_list(),
            self.name,
            order.join(", ")
        )
    }

    /// A multi-row INSERT of `rows` rows with numbered placeholders.
    pub fn insert(&self, rows: usize) -> String {
        let width = self.columns.len();
        let mut sql = format!("INSERT INTO {} ({}) VALUES ", self.name, self.column_list());
        for r in 0..rows {
            if r > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..width {
                if c > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("${}", r * width + c + 1));
            }
            sql.push(')');
        }
        sql
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str) -> Table {
        tables()
            .unwrap()
            .into_iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("no table {name}"))
    }

    #[test]
    fn placeholders_are_numbered_across_rows() {
        let shares = table("document_shares");
        assert_eq!(
            shares.insert(2),
            "INSERT INTO document_shares (doc_seq, user_id, can_edit) \
             VALUES ($1, $2, $3), ($4, $5, $6)"
        );
    }

    #[test]
    fn text_keys_sort_bytewise_on_postgres() {
        let failures = table("login_failures");
        assert!(
            failures
                .select(Backend::Postgres)
                .ends_with("ORDER BY key COLLATE \"C\", at")
        );
        assert!(
            failures
                .select(Backend::Sqlite)
                .ends_with("ORDER BY key, at")
        );
    }

    #[test]
    fn every_order_column_is_copied() {
        for t in tables().unwrap() {
            for c in t.order.iter().chain(t.identity.iter()) {
                assert!(t.kind(c).is_some(), "{}.{c}", t.name);
            }
        }
    }
}
