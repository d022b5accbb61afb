-- SQLite twin of migrations/postgres/0032_search_after_commit.sql. SQLite's
-- search indexes have been kept after the commit since 0008: nothing to change.
SELECT 1;
