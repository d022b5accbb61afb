-- Aliases: other titles a document answers links by, from its front matter's
-- `aliases` (written by quire with the page, as link keys: `documents.aliases`,
-- a JSON array). `document_aliases` holds them one by one for the triggers
-- below, which give each link to an alias the document as one more place it
-- may lead (`document_link_ends`), as a title does; a reader is shown the
-- first one they may read, as for titles.
ALTER TABLE documents ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';

CREATE TABLE document_aliases (
    alias   TEXT NOT NULL,
    doc_seq INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (alias, doc_seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_aliases_by_doc ON document_aliases (doc_seq);

-- A document's aliases, and the links that now may lead to it by one.
CREATE TRIGGER documents_aliases_insert AFTER INSERT ON documents
WHEN NEW.aliases <> '[]'
BEGIN
    INSERT OR IGNORE INTO document_aliases (alias, doc_seq)
        SELECT j.value, NEW.seq FROM json_each(NEW.aliases) AS j;
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (SELECT value FROM json_each(NEW.aliases))
           AND NEW.deleted_at IS NULL;
END;

CREATE TRIGGER documents_aliases_update AFTER UPDATE OF aliases ON documents
WHEN NEW.aliases <> OLD.aliases
BEGIN
    DELETE FROM document_aliases WHERE doc_seq = NEW.seq
        AND alias NOT IN (SELECT value FROM json_each(NEW.aliases));
    INSERT OR IGNORE INTO document_aliases (alias, doc_seq)
        SELECT j.value, NEW.seq FROM json_each(NEW.aliases) AS j;
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (SELECT value FROM json_each(NEW.aliases))
           AND NEW.deleted_at IS NULL;
END;

-- Back from the trash: links to its aliases may lead to it again.
CREATE TRIGGER documents_aliases_restored AFTER UPDATE OF deleted_at ON documents
WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL AND NEW.aliases <> '[]'
BEGIN
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (SELECT value FROM json_each(NEW.aliases));
END;

-- A new link may lead to each live document that has its target as an alias.
CREATE TRIGGER document_links_to_aliases AFTER INSERT ON document_links
BEGIN
    INSERT OR IGNORE INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.from_seq, NEW.target, a.doc_seq FROM document_aliases AS a
          JOIN documents AS t ON t.seq = a.doc_seq
         WHERE a.alias = NEW.target AND t.deleted_at IS NULL;
END;
