-- Folders and tags. A document lives in a folder, a path such as
-- `Projects/Garden` ('' is the root), and carries tags, a JSON array of
-- lower-case names. Both are versioned like the title: each revision records
-- them. A folder grants nothing; it exists while a document is in it.
ALTER TABLE documents ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE revisions ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';

-- Each tag of each document, kept by the triggers below from `documents.tags`:
-- the list narrowed to a tag, a row's tags and the counts read this, never the
-- document rows (whose `tags` column sits after the body).
CREATE TABLE document_tags (
    tag     TEXT NOT NULL,
    doc_seq INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (tag, doc_seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_tags_of_document ON document_tags (doc_seq, tag);

CREATE TRIGGER documents_tags_insert AFTER INSERT ON documents
WHEN NEW.tags <> '[]'
BEGIN
    INSERT OR IGNORE INTO document_tags (tag, doc_seq)
        SELECT value, NEW.seq FROM json_each(NEW.tags);
END;

CREATE TRIGGER documents_tags_update AFTER UPDATE OF tags ON documents
WHEN NEW.tags <> OLD.tags
BEGIN
    DELETE FROM document_tags WHERE doc_seq = NEW.seq;
    INSERT OR IGNORE INTO document_tags (tag, doc_seq)
        SELECT value, NEW.seq FROM json_each(NEW.tags);
END;

-- The listings show each row's folder: the covering indexes of 0006 and 0012
-- hold it too, so a list page still reads no document rows.
DROP INDEX IF EXISTS documents_listing;
CREATE INDEX documents_listing
    ON documents (updated_at DESC, id, title, size, deleted_at, owner_id, visibility, folder)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS documents_listing_by_created;
CREATE INDEX documents_listing_by_created
    ON documents (created_at DESC, id, title, size, updated_at, deleted_at, owner_id, visibility, folder)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS documents_listing_by_title;
CREATE INDEX documents_listing_by_title
    ON documents (lower(title), id, title, size, updated_at, deleted_at, owner_id, visibility, folder)
    WHERE deleted_at IS NULL;
-- A folder's documents (and its subfolders': a range of the same index), and
-- the folder tree's counts.
CREATE INDEX documents_in_folder
    ON documents (folder, updated_at DESC, id, title, size, created_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
