//! quire's schema, one ordered list of steps. Each step names its SQL for both
//! engines (`sqlite/` and `postgres/` beside this file, the same file name), so a
//! step cannot exist for one engine only; each runs in a transaction together
//! with the record that it ran (`seaql_migrations`), so a step that fails leaves
//! nothing half done.
//!
//! Portable DDL and the backend-specific parts (FTS5 tables and triggers,
//! tsvector, GIN, plpgsql) are one SQL text per engine: the schema was written
//! that way, and a step's two texts side by side are the easiest thing to keep
//! in step.

use sea_orm_migration::prelude::*;

/// One schema change: its name (recorded in `seaql_migrations`) and its SQL
/// for each engine.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub name: &'static str,
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

macro_rules! step {
    ($name:literal) => {
        Step {
            name: $name,
            sqlite: include_str!(concat!("sqlite/", $name, ".sql")),
            postgres: include_str!(concat!("postgres/", $name, ".sql")),
        }
    };
}

/// In order. A database made before quire used this list recorded steps
/// 1–7 by number in `_sqlx_migrations`; they are the first seven here.
pub const STEPS: &[Step] = &[
    step!("0001_documents"),
    step!("0002_history_search"),
    step!("0003_accounts"),
    step!("0004_api_tokens"),
    step!("0005_drafts"),
    step!("0006_covering_indexes"),
    step!("0007_owners_for_ownerless"),
    step!("0008_search_queue"),
    step!("0009_revision_texts_rowid"),
    step!("0010_trigram_rowids"),
    step!("0011_compressed_html"),
    step!("0012_listing_orders"),
    step!("0013_folders_tags"),
    step!("0014_links"),
    step!("0015_attachments"),
    step!("0016_file_names"),
    step!("0017_new_drafts"),
    step!("0018_link_ends"),
    step!("0019_spaces"),
    step!("0020_search_merges"),
    step!("0021_identities"),
    step!("0022_notices"),
    step!("0023_comments"),
    step!("0024_space_rules"),
    step!("0025_webhooks"),
    step!("0026_suggestions"),
    step!("0027_templates"),
    step!("0028_aliases"),
    step!("0029_search_words"),
    step!("0030_attachment_texts"),
    step!("0031_toast_lz4"),
    step!("0032_search_after_commit"),
];

pub struct Migrator;

impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        STEPS
            .iter()
            .map(|s| Box::new(*s) as Box<dyn MigrationTrait>)
            .collect()
    }
}

impl MigrationName for Step {
    fn name(&self) -> &str {
        self.name
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Step {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let sql = match manager.get_database_backend() {
            sea_orm::DbBackend::Sqlite => self.sqlite,
            sea_orm::DbBackend::Postgres => self.postgres,
            other => {
                return Err(DbErr::Migration(format!(
                    "quire has no schema for {other:?}"
                )));
            }
        };
        manager.get_connection().execute_unprepared(sql).await?;
        Ok(())
    }
}
