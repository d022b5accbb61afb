-- Unsaved editor text, one draft per user and document, kept by autosave so that
-- a closed tab, an ended session or a restart loses nothing. A draft goes with its
-- document or its user, and is deleted when that user saves the document.
CREATE TABLE drafts (
    doc_seq      INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT NOT NULL CHECK (length(title) <= 200),
    body         TEXT NOT NULL CHECK (length(CAST(body AS BLOB)) <= 67108864),
    -- The version the text was based on: restoring it saves through the merge.
    base_version INTEGER NOT NULL CHECK (base_version >= 1),
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (doc_seq, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX drafts_by_user ON drafts (user_id);

CREATE TRIGGER drafts_body_cap_insert BEFORE INSERT ON drafts
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'draft body exceeds max_doc_bytes');
END;

CREATE TRIGGER drafts_body_cap_update BEFORE UPDATE OF body ON drafts
WHEN length(CAST(NEW.body AS BLOB)) >
     coalesce((SELECT value FROM quire_settings WHERE key = 'max_doc_bytes'), 262144)
BEGIN
    SELECT RAISE(ABORT, 'draft body exceeds max_doc_bytes');
END;
