//! Search statements, one engine per file: FTS5 with bm25 on SQLite, `tsvector`
//! and pg_trgm on PostgreSQL. What to look for (the user's words cut into plain
//! terms, never syntax) and how hits are shown is decided above, in
//! `documents::search`; these take the terms as values and return rows of the
//! caller's shape (`id, title, updated_at, snippet`), best first.

pub mod postgres;
pub mod queue;
pub mod sqlite;
