//! What `quire migrate-to` copies: every table of the schema, parents before the
//! tables that refer to them, each column with its type, and the order rows are
//! read in (the same on both engines, so the two sides hash alike).

use crate::db::Backend;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Text,
    Blob,
}

pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    /// Columns that order the rows. For `revision_texts` it starts with `depth`:
    /// a text stored as a delta refers to its base in the same table, one level
    /// shallower, so inserting shallow texts first keeps every reference valid.
    pub order: &'static [&'static str],
    /// The identity column PostgreSQL must be moved past the copied keys.
    pub identity: Option<&'static str>,
}

/// Tables the copy leaves alone: `quire_settings` holds what quire writes from
/// its configuration at every start, the record of schema steps (`seaql_migrations`,
/// and `_sqlx_migrations` from older releases) is each engine's own.
pub const NOT_COPIED: &[&str] = &["quire_settings", "_sqlx_migrations", "seaql_migrations"];

use Kind::{Blob, Int, Text};

pub const TABLES: &[Table] = &[
    Table {
        name: "users",
        columns: &[
            ("id", Int),
            ("username", Text),
            ("password_hash", Text),
            ("is_admin", Int),
            ("disabled_at", Int),
            ("created_at", Int),
        ],
        order: &["id"],
        identity: Some("id"),
    },
    Table {
        name: "documents",
        // Not PostgreSQL's `words`: it is generated from these.
        columns: &[
            ("seq", Int),
            ("id", Text),
            ("title", Text),
            ("version", Int),
            ("created_at", Int),
            ("updated_at", Int),
            ("deleted_at", Int),
            ("render_version", Int),
            ("size", Int),
            ("body", Text),
            ("html", Text),
            ("cjk", Text),
            ("owner_id", Int),
            ("visibility", Text),
            ("public_token", Text),
        ],
        order: &["seq"],
        identity: Some("seq"),
    },
    Table {
        name: "revision_texts",
        columns: &[
            ("doc_seq", Int),
            ("hash", Blob),
            ("base", Blob),
            ("depth", Int),
            ("raw_size", Int),
            ("data", Blob),
        ],
        order: &["depth", "doc_seq", "hash"],
        identity: None,
    },
    Table {
        name: "revisions",
        columns: &[
            ("doc_seq", Int),
            ("rev", Int),
            ("title", Text),
            ("text_hash", Blob),
            ("size", Int),
            ("added", Int),
            ("removed", Int),
            ("author", Text),
            ("created_at", Int),
        ],
        order: &["doc_seq", "rev"],
        identity: None,
    },
    Table {
        name: "document_shares",
        columns: &[("doc_seq", Int), ("user_id", Int), ("can_edit", Int)],
        order: &["doc_seq", "user_id"],
        identity: None,
    },
    Table {
        name: "sessions",
        columns: &[
            ("token_hash", Blob),
            ("user_id", Int),
            ("created_at", Int),
            ("last_seen", Int),
        ],
        order: &["token_hash"],
        identity: None,
    },
    Table {
        name: "api_tokens",
        columns: &[
            ("id", Int),
            ("user_id", Int),
            ("name", Text),
            ("token_hash", Blob),
            ("created_at", Int),
            ("last_used_at", Int),
            ("revoked_at", Int),
        ],
        order: &["id"],
        identity: Some("id"),
    },
    Table {
        name: "drafts",
        columns: &[
            ("doc_seq", Int),
            ("user_id", Int),
            ("title", Text),
            ("body", Text),
            ("base_version", Int),
            ("updated_at", Int),
        ],
        order: &["doc_seq", "user_id"],
        identity: None,
    },
    Table {
        name: "audit_log",
        columns: &[
            ("id", Int),
            ("at", Int),
            ("user_id", Int),
            ("event", Text),
            ("detail", Text),
        ],
        order: &["id"],
        identity: Some("id"),
    },
    Table {
        name: "login_failures",
        columns: &[("key", Text), ("at", Int)],
        order: &["key", "at"],
        identity: None,
    },
];

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

    fn table(name: &str) -> &'static Table {
        TABLES
            .iter()
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
        for t in TABLES {
            for c in t.order.iter().chain(t.identity.iter()) {
                assert!(t.kind(c).is_some(), "{}.{c}", t.name);
            }
        }
    }
}
