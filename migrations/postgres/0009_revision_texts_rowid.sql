-- PostgreSQL twin of migrations/sqlite/0009_revision_texts_rowid.sql: nothing to
-- change. PostgreSQL tables are heaps with the key in a separate index already,
-- and a large value is compressed and moved out of line by TOAST.
SELECT 1;
