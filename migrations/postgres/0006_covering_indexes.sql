-- PostgreSQL twin of migrations/sqlite/0006_covering_indexes.sql: listings read
-- the index only (PostgreSQL keeps large text out of line anyway, in TOAST).
CREATE INDEX documents_listing
    ON documents (updated_at DESC, id) INCLUDE (title, size, owner_id, visibility)
    WHERE deleted_at IS NULL;
CREATE INDEX documents_access ON documents (seq, deleted_at, owner_id, visibility);
DROP INDEX IF EXISTS documents_live_by_updated;
