-- A title is a secret too: where a link leads is decided for each reader,
-- among the documents that reader may read, so nothing they see of a link
-- depends on a document they may not read. A link used to be tied, when it was
-- written, to one document of its title, readable or not (`document_links.to_seq`);
-- a private document of that title then kept the link from every document its
-- reader gave that title later.
--
-- `document_links` keeps one row per link, found by its target when a
-- document takes a title; its `to_seq` is no longer used (NULL). Where a link
-- may lead is `document_link_ends`: every document that has had the link's
-- title (or folder and title) while the link existed, taking it while not in
-- the trash. A rename keeps the row, so the link follows the document. A
-- reader is shown the first of them they may read that is not in the trash:
-- the linking document's owner's first, then the oldest (`db::documents::links`).
DROP TRIGGER IF EXISTS documents_links_insert;
DROP TRIGGER IF EXISTS documents_links_update;
DROP TRIGGER IF EXISTS documents_links_waiting_insert;
DROP TRIGGER IF EXISTS documents_links_waiting_named;
DROP INDEX IF EXISTS document_links_waiting;
CREATE INDEX document_links_by_target ON document_links (target);

CREATE TABLE document_link_ends (
    from_seq INTEGER NOT NULL,
    target   TEXT NOT NULL,
    to_seq   INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (from_seq, target, to_seq),
    FOREIGN KEY (from_seq, target) REFERENCES document_links (from_seq, target) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
-- A document's backlinks.
CREATE INDEX document_link_ends_to ON document_link_ends (to_seq, from_seq);

INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
    SELECT from_seq, target, to_seq FROM document_links WHERE to_seq IS NOT NULL;
UPDATE document_links SET to_seq = NULL WHERE to_seq IS NOT NULL;

-- A key is a title, or a folder and a title (`projects/garden/tomatoes`):
-- `rtrim(key, <its characters but '/'>)` is the key up to its last slash.
INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
    SELECT l.from_seq, l.target, t.seq FROM document_links AS l
      JOIN documents AS t ON lower(t.title) = l.target
     WHERE t.deleted_at IS NULL;
INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
    SELECT l.from_seq, l.target, t.seq FROM document_links AS l
      JOIN documents AS t
        ON lower(t.title) = substr(l.target, length(rtrim(l.target, replace(l.target, '/', ''))) + 1)
       AND lower(t.folder) || '/' = rtrim(l.target, replace(l.target, '/', ''))
     WHERE instr(l.target, '/') > 0 AND t.deleted_at IS NULL;

-- A page's links, and the documents that have each new one's title now.
CREATE TRIGGER documents_links_insert AFTER INSERT ON documents
WHEN NEW.links <> '[]'
BEGIN
    INSERT OR IGNORE INTO document_links (from_seq, target)
        SELECT NEW.seq, j.value FROM json_each(NEW.links) AS j;
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, t.seq FROM json_each(NEW.links) AS j
          JOIN documents AS t ON lower(t.title) = j.value
         WHERE t.deleted_at IS NULL;
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, t.seq FROM json_each(NEW.links) AS j
          JOIN documents AS t
            ON lower(t.title) = substr(j.value, length(rtrim(j.value, replace(j.value, '/', ''))) + 1)
           AND lower(t.folder) || '/' = rtrim(j.value, replace(j.value, '/', ''))
         WHERE instr(j.value, '/') > 0 AND t.deleted_at IS NULL;
END;

CREATE TRIGGER documents_links_update AFTER UPDATE OF links ON documents
WHEN NEW.links <> OLD.links
BEGIN
    DELETE FROM document_links WHERE from_seq = NEW.seq
        AND target NOT IN (SELECT value FROM json_each(NEW.links));
    INSERT OR IGNORE INTO document_links (from_seq, target)
        SELECT NEW.seq, j.value FROM json_each(NEW.links) AS j;
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, t.seq FROM json_each(NEW.links) AS j
          JOIN documents AS t ON lower(t.title) = j.value
         WHERE t.deleted_at IS NULL
           AND j.value NOT IN (SELECT value FROM json_each(OLD.links));
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.seq, j.value, t.seq FROM json_each(NEW.links) AS j
          JOIN documents AS t
            ON lower(t.title) = substr(j.value, length(rtrim(j.value, replace(j.value, '/', ''))) + 1)
           AND lower(t.folder) || '/' = rtrim(j.value, replace(j.value, '/', ''))
         WHERE instr(j.value, '/') > 0 AND t.deleted_at IS NULL
           AND j.value NOT IN (SELECT value FROM json_each(OLD.links));
END;

-- A new document, one given a new title or folder, and one back from the
-- trash may be where each link to its title leads, whoever wrote the link.
CREATE TRIGGER documents_links_taken_insert AFTER INSERT ON documents
BEGIN
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (lower(NEW.title), lower(NEW.folder) || '/' || lower(NEW.title));
END;

CREATE TRIGGER documents_links_taken_update AFTER UPDATE OF title, folder, deleted_at ON documents
WHEN NEW.title <> OLD.title OR NEW.folder <> OLD.folder
  OR (OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL)
BEGIN
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (lower(NEW.title), lower(NEW.folder) || '/' || lower(NEW.title));
END;
