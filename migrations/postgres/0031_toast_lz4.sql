-- PostgreSQL compresses a long value as it stores it (TOAST), with pglz unless
-- told otherwise. Profiled under many saves, pglz on a document's text took
-- 3.6 % of the machine, lz4 0.4 %, and saves went 1.04-1.07x as fast
-- (docs/PERFORMANCE.md, "lz4 for what PostgreSQL compresses"). Only values
-- written from now on use it; PostgreSQL reads both. A server built without
-- lz4 keeps pglz.
--
-- The bytes quire compresses itself (zstd: pages, revision texts) are stored
-- out of line uncompressed: compressing them again gains nothing.
DO $$
BEGIN
    ALTER TABLE documents
        ALTER COLUMN body SET COMPRESSION lz4,
        ALTER COLUMN folded SET COMPRESSION lz4,
        ALTER COLUMN words SET COMPRESSION lz4;
    ALTER TABLE drafts ALTER COLUMN body SET COMPRESSION lz4;
    ALTER TABLE new_drafts ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available here: TOAST keeps pglz';
END $$;

ALTER TABLE documents ALTER COLUMN html_z SET STORAGE EXTERNAL;
ALTER TABLE revision_texts ALTER COLUMN data SET STORAGE EXTERNAL;
