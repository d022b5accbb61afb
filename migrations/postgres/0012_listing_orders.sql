-- The document list sorted by creation or by title (its `sort` parameter), held
-- like documents_listing (0006).
CREATE INDEX documents_listing_by_created
    ON documents (created_at DESC, id) INCLUDE (title, size, updated_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
CREATE INDEX documents_listing_by_title
    ON documents (lower(title), id) INCLUDE (title, size, updated_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
