-- Suggested edits: a whole new version of a document proposed by someone
-- (who may only read it, or chose not to save), based on the version they
-- read, waiting for an editor to accept (merged like a save) or decline it.
CREATE TABLE suggestions (
    id           INTEGER PRIMARY KEY,
    doc_seq      INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    author_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    author       TEXT NOT NULL,
    base_version INTEGER NOT NULL,
    title        TEXT NOT NULL,
    body         TEXT NOT NULL,
    -- Why, in the author's words.
    note         TEXT NOT NULL DEFAULT '',
    state        TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'declined')),
    decided_by   TEXT,
    decided_at   INTEGER,
    -- Why it was declined, in the decider's words.
    answer       TEXT,
    -- The version accepting it made (the history names its author beside the editor).
    accepted_version INTEGER,
    created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX suggestions_by_document ON suggestions (doc_seq, state);
