-- PostgreSQL twin of migrations/sqlite/0016_file_names.sql: the file a
-- document was imported from, for exports to name it the same.
ALTER TABLE documents ADD COLUMN file_name TEXT;
