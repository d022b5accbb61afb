-- Links between documents: `[[Title]]`, `[[Title|label]]` and
-- `[[Folder/Title]]` in a document's text. The page's targets (lower-case
-- keys) are stored with the page, in `links`, a JSON array; `document_links`
-- is kept from it by the triggers below, never written by quire. Each row
-- holds the document its target named when the link was written, so the link
-- follows that document through a rename; a target no document has yet waits
-- (NULL) and is taken by the first document to be given that title. Only live
-- documents are found, the linking document's owner's own first. Who may
-- follow a link is decided when a page is read.
ALTER TABLE documents ADD COLUMN links TEXT NOT NULL DEFAULT '[]';

CREATE TABLE document_links (
    from_seq INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    target   TEXT NOT NULL,
    to_seq   INTEGER REFERENCES documents (seq) ON DELETE SET NULL,
    PRIMARY KEY (from_seq, target)
) STRICT, WITHOUT ROWID;
-- A document's backlinks; the links waiting for a title.
CREATE INDEX document_links_to ON document_links (to_seq) WHERE to_seq IS NOT NULL;
CREATE INDEX document_links_waiting ON document_links (target) WHERE to_seq IS NULL;

-- A key is a title, or a folder and a title (`projects/garden/tomatoes`):
-- `rtrim(key, <its characters but '/'>)` is the key up to its last slash.
CREATE TRIGGER documents_links_insert AFTER INSERT ON documents
WHEN NEW.links <> '[]'
BEGIN
    INSERT OR IGNORE INTO document_links (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, coalesce(
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND lower(t.title) = j.value
              ORDER BY t.owner_id IS NOT NEW.owner_id, t.seq LIMIT 1),
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND instr(j.value, '/') > 0
                AND lower(t.title) = substr(j.value, length(rtrim(j.value, replace(j.value, '/', ''))) + 1)
                AND lower(t.folder) || '/' = rtrim(j.value, replace(j.value, '/', ''))
              ORDER BY t.owner_id IS NOT NEW.owner_id, t.seq LIMIT 1))
        FROM json_each(NEW.links) AS j;
END;

CREATE TRIGGER documents_links_update AFTER UPDATE OF links ON documents
WHEN NEW.links <> OLD.links
BEGIN
    DELETE FROM document_links WHERE from_seq = NEW.seq
        AND target NOT IN (SELECT value FROM json_each(NEW.links));
    INSERT OR IGNORE INTO document_links (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, coalesce(
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND lower(t.title) = j.value
              ORDER BY t.owner_id IS NOT NEW.owner_id, t.seq LIMIT 1),
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND instr(j.value, '/') > 0
                AND lower(t.title) = substr(j.value, length(rtrim(j.value, replace(j.value, '/', ''))) + 1)
                AND lower(t.folder) || '/' = rtrim(j.value, replace(j.value, '/', ''))
              ORDER BY t.owner_id IS NOT NEW.owner_id, t.seq LIMIT 1))
        FROM json_each(NEW.links) AS j;
END;

-- A new document, or one given a new title or folder, takes the links that
-- wait for it.
CREATE TRIGGER documents_links_waiting_insert AFTER INSERT ON documents
BEGIN
    UPDATE document_links SET to_seq = NEW.seq
        WHERE to_seq IS NULL
          AND target IN (lower(NEW.title), lower(NEW.folder) || '/' || lower(NEW.title));
END;

CREATE TRIGGER documents_links_waiting_named AFTER UPDATE OF title, folder ON documents
WHEN NEW.title <> OLD.title OR NEW.folder <> OLD.folder
BEGIN
    UPDATE document_links SET to_seq = NEW.seq
        WHERE to_seq IS NULL
          AND target IN (lower(NEW.title), lower(NEW.folder) || '/' || lower(NEW.title));
END;
