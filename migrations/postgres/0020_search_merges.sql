-- SQLite's FTS5 indexes leave merging to the search indexer (see sqlite/). PostgreSQL
-- keeps its search columns in the row: nothing changes here.
SELECT 1;
