-- PostgreSQL twin of migrations/sqlite/0010_trigram_rowids.sql: nothing to
-- change. pg_trgm's GIN index keeps no positions already, and a search for a part
-- of a word is checked against the text by its `LIKE`.
SELECT 1;
