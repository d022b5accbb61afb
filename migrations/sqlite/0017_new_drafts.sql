-- A new document's unsaved text, kept by the editor's autosave before its first
-- save, so a closed tab or a lost connection loses nothing of it either. One row per
-- person and editor page (the page's own random key: two new documents written in
-- two tabs are two drafts); deleted when the document is created from it or the
-- person discards it, and with the person.
CREATE TABLE new_drafts (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key        TEXT NOT NULL CHECK (length(key) BETWEEN 16 AND 64),
    title      TEXT NOT NULL CHECK (length(title) <= 200),
    body       TEXT NOT NULL CHECK (length(CAST(body AS BLOB)) <= 67108864),
    folder     TEXT NOT NULL CHECK (length(folder) <= 1000),
    tags       TEXT NOT NULL CHECK (length(tags) <= 4000),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER new_drafts_body_cap_insert BEFORE INSERT ON new_drafts
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'new draft body exceeds max_doc_bytes');
END;

CREATE TRIGGER new_drafts_body_cap_update BEFORE UPDATE OF body ON new_drafts
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'new draft body exceeds max_doc_bytes');
END;
