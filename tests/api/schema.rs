//! The entities in `src/db/entity/` describe the schema the migrations make, on
//! both engines: every column, its kind, and every table.

use quire::db::entity::{Kind, tables};

use crate::helpers::{on_postgres, spawn_app};

#[tokio::test]
async fn the_entities_match_the_schema_the_migrations_make() {
    let app = spawn_app().await;
    let db = &app.db;
    for shape in tables().expect("every entity column has a known kind") {
        let real: Vec<(String, String)> = if on_postgres() {
            quire::db::query_as(
                "SELECT column_name::text, data_type::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1
                   AND is_generated = 'NEVER' ORDER BY ordinal_position",
            )
        } else {
            quire::db::query_as("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
        }
        .bind(shape.name)
        .fetch_all(&db.read)
        .await
        .unwrap();
        let real: Vec<(String, Kind)> = real
            .into_iter()
            .map(|(name, ty)| {
                let kind = match ty.to_lowercase().as_str() {
                    "integer" | "bigint" => Kind::Int,
                    "text" => Kind::Text,
                    "blob" | "bytea" => Kind::Blob,
                    other => panic!("{}.{name} has type {other}", shape.name),
                };
                (name, kind)
            })
            .collect();
        let described: Vec<(String, Kind)> = shape
            .columns
            .iter()
            .map(|(n, k)| ((*n).to_owned(), *k))
            .collect();
        assert_eq!(
            described, real,
            "the entity for {} differs from the schema",
            shape.name
        );
    }

    // And no table of the schema lacks an entity.
    let names: Vec<String> = if on_postgres() {
        quire::db::query_scalar(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
    } else {
        quire::db::query_scalar(
            "SELECT name FROM pragma_table_list
             WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
    }
    .fetch_all(&db.read)
    .await
    .unwrap();
    let known: Vec<&str> = tables().unwrap().iter().map(|s| s.name).collect();
    for name in names {
        assert!(
            // The search queue is work for the indexer, not data: no entity,
            // never copied (migrations/*/0008_search_queue.sql, and 0032 on
            // PostgreSQL, whose indexer keeps `document_search` from it);
            // PostgreSQL's vocabulary is made by a trigger as documents are
            // indexed (migrations/postgres/0029_search_words.sql).
            known.contains(&name.as_str())
                || [
                    "seaql_migrations",
                    "search_queue",
                    "search_words",
                    "document_search"
                ]
                .contains(&name.as_str()),
            "the table {name} has no entity"
        );
    }
}
