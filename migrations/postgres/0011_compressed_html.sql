-- PostgreSQL twin of migrations/sqlite/0011_compressed_html.sql: the page
-- compressed by quire (zstd) rather than by TOAST (pglz), the same bytes on
-- both engines.
ALTER TABLE documents ADD COLUMN html_z bytea;
