-- PostgreSQL twin of migrations/sqlite/0013_folders_tags.sql: a document's
-- folder ('' is the root) and tags (a JSON array of lower-case names), recorded
-- by each revision; `document_tags` kept from `documents.tags` by a trigger.
ALTER TABLE documents ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE revisions ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';

CREATE TABLE document_tags (
    tag     TEXT NOT NULL,
    doc_seq BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (tag, doc_seq)
);
CREATE INDEX document_tags_of_document ON document_tags (doc_seq, tag);

CREATE FUNCTION quire_document_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM document_tags WHERE doc_seq = NEW.seq;
    END IF;
    INSERT INTO document_tags (tag, doc_seq)
        SELECT DISTINCT t, NEW.seq FROM jsonb_array_elements_text(NEW.tags::jsonb) AS t
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_tags_insert AFTER INSERT ON documents
    FOR EACH ROW WHEN (NEW.tags <> '[]') EXECUTE FUNCTION quire_document_tags();
CREATE TRIGGER documents_tags_update AFTER UPDATE OF tags ON documents
    FOR EACH ROW WHEN (NEW.tags IS DISTINCT FROM OLD.tags) EXECUTE FUNCTION quire_document_tags();

-- A folder's documents (and its subfolders': a range of the same index), and
-- the folder tree's counts.
CREATE INDEX documents_in_folder
    ON documents (folder, updated_at DESC, id) INCLUDE (title, size, created_at, owner_id, visibility)
    WHERE deleted_at IS NULL;
