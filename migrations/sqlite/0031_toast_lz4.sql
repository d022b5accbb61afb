-- SQLite twin of migrations/postgres/0031_toast_lz4.sql. SQLite stores a value
-- as it is given (quire compresses pages and revision texts itself, with
-- zstd, on both engines), so there is nothing to change here.
SELECT 1;
