-- The document list sorted by creation or by title (its `sort` parameter), held
-- like documents_listing (0006): what a page shows and what the access filter
-- reads are in the index, so sorting ten thousand documents reads none of them.
CREATE INDEX documents_listing_by_created
    ON documents (created_at DESC, id, title, size, updated_at, deleted_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
CREATE INDEX documents_listing_by_title
    ON documents (lower(title), id, title, size, updated_at, deleted_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
