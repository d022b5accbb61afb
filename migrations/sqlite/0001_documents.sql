-- Settings the schema itself enforces; the application writes them at start.
CREATE TABLE quire_settings (
    key   TEXT PRIMARY KEY NOT NULL,
    value INTEGER NOT NULL
) STRICT;

-- Documents live inline: the markdown source and the sanitised HTML rendered from it
-- when it was saved, so reading a page never parses markdown.
CREATE TABLE documents (
    -- A stable integer key: full-text indexes refer to rows by it, and unlike an
    -- implicit rowid it never changes (not even on VACUUM).
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE CHECK (length(id) = 26),
    title          TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    version        INTEGER NOT NULL CHECK (version >= 1),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    deleted_at     INTEGER,
    render_version INTEGER NOT NULL,
    -- Small columns first: a listing reads them without walking the body's pages.
    size           INTEGER NOT NULL CHECK (size = length(CAST(body AS BLOB))),
    -- A hard ceiling; the configured cap is enforced by the triggers below.
    body           TEXT NOT NULL CHECK (length(CAST(body AS BLOB)) <= 67108864),
    html           TEXT NOT NULL
) STRICT;

CREATE INDEX documents_live_by_updated
    ON documents (updated_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX documents_trash_by_deleted
    ON documents (deleted_at DESC, id) WHERE deleted_at IS NOT NULL;

CREATE TRIGGER documents_body_cap_insert BEFORE INSERT ON documents
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'document body exceeds max_doc_bytes');
END;

CREATE TRIGGER documents_body_cap_update BEFORE UPDATE OF body ON documents
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'document body exceeds max_doc_bytes');
END;
