-- Listings and search filter on owner_id and visibility, which ALTER TABLE placed
-- after body and html in every row: reading them walked each large document's
-- overflow pages (a list page of 10,000 documents took 37 ms at p50). These
-- indexes hold what a listing and the access filter read, so neither touches rows.
CREATE INDEX documents_listing
    ON documents (updated_at DESC, id, title, size, deleted_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
-- Looked up by seq (the FTS rowid) in search; see documents/search.rs.
CREATE INDEX documents_access ON documents (seq, deleted_at, owner_id, visibility);
-- documents_listing does its work and more.
DROP INDEX IF EXISTS documents_live_by_updated;
