-- The text of attached files (PDF, DOCX, ODT, HTML, plain text), searched
-- with their documents. Extracted after the upload, off the request path, by
-- `documents::extraction`, one content (by hash) at a time: `attachment_texts`
-- says how each went ('working' while claimed until `claimed_until`; 'done';
-- 'failed' with a note, not tried again after three tries; 'skipped' for kinds
-- quire does not read), `attachment_pages` holds the text page by page, and
-- `attachment_words` indexes it. A file's text is searched exactly when its
-- document may be read, through `document_files`.
CREATE TABLE attachment_texts (
    hash          BLOB PRIMARY KEY REFERENCES attachments (hash) ON DELETE CASCADE,
    state         TEXT NOT NULL CHECK (state IN ('working', 'done', 'failed', 'skipped')),
    note          TEXT NOT NULL DEFAULT '',
    tries         INTEGER NOT NULL DEFAULT 1,
    claimed_until INTEGER,
    finished_at   INTEGER
) STRICT;

CREATE TABLE attachment_pages (
    seq  INTEGER PRIMARY KEY,
    hash BLOB NOT NULL REFERENCES attachments (hash) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    text TEXT NOT NULL
) STRICT;
CREATE INDEX attachment_pages_by_hash ON attachment_pages (hash, page);

CREATE VIRTUAL TABLE attachment_words USING fts5 (
    text,
    content = 'attachment_pages', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER attachment_pages_insert AFTER INSERT ON attachment_pages BEGIN
    INSERT INTO attachment_words (rowid, text) VALUES (NEW.seq, NEW.text);
END;

CREATE TRIGGER attachment_pages_delete AFTER DELETE ON attachment_pages BEGIN
    INSERT INTO attachment_words (attachment_words, rowid, text)
        VALUES ('delete', OLD.seq, OLD.text);
END;
