-- PostgreSQL twin of migrations/sqlite/0008_search_queue.sql: nothing to change.
-- The `tsvector` and folded-text columns are computed in the row as it is
-- written, and their GIN indexes use PostgreSQL's pending list, so the
-- statement that saves a document does not rebuild the index either.
SELECT 1;
