-- Revision history. Every save appends a row to `revisions`; the text itself lives
-- in `revision_texts`, once per distinct body of a document (keyed by its SHA-256),
-- zstd-compressed either whole (a snapshot) or against the text it replaced
-- (`base`), with a snapshot at least every few revisions so reading stays bounded.
CREATE TABLE revision_texts (
    doc_seq    INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    hash       BLOB NOT NULL CHECK (length(hash) = 32),
    base       BLOB,
    depth      INTEGER NOT NULL CHECK (depth >= 0),
    raw_size   INTEGER NOT NULL,
    data       BLOB NOT NULL,
    PRIMARY KEY (doc_seq, hash),
    FOREIGN KEY (doc_seq, base) REFERENCES revision_texts (doc_seq, hash),
    CHECK ((base IS NULL) = (depth = 0))
) STRICT, WITHOUT ROWID;

CREATE TABLE revisions (
    doc_seq    INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    rev        INTEGER NOT NULL CHECK (rev >= 1),
    title      TEXT NOT NULL,
    text_hash  BLOB NOT NULL,
    size       INTEGER NOT NULL,
    added      INTEGER NOT NULL,
    removed    INTEGER NOT NULL,
    author     TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (doc_seq, rev),
    FOREIGN KEY (doc_seq, text_hash) REFERENCES revision_texts (doc_seq, hash)
) STRICT, WITHOUT ROWID;

-- Chinese and Japanese have no spaces between words: the application writes every
-- pair of neighbouring CJK characters here (space-separated) so the word index can
-- find any run of two or more of them.
ALTER TABLE documents ADD COLUMN cjk TEXT NOT NULL DEFAULT '';

-- Word index: accents folded, ranked by bm25. External content: the text is
-- stored once, in `documents`.
CREATE VIRTUAL TABLE documents_words USING fts5 (
    title, body, cjk,
    content = 'documents', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Trigram index: finds any part of a word of three or more characters.
CREATE VIRTUAL TABLE documents_trigrams USING fts5 (
    title, body,
    content = 'documents', content_rowid = 'seq',
    tokenize = 'trigram remove_diacritics 1'
);

CREATE TRIGGER documents_search_insert AFTER INSERT ON documents BEGIN
    INSERT INTO documents_words (rowid, title, body, cjk)
        VALUES (NEW.seq, NEW.title, NEW.body, NEW.cjk);
    INSERT INTO documents_trigrams (rowid, title, body)
        VALUES (NEW.seq, NEW.title, NEW.body);
END;

CREATE TRIGGER documents_search_delete AFTER DELETE ON documents BEGIN
    INSERT INTO documents_words (documents_words, rowid, title, body, cjk)
        VALUES ('delete', OLD.seq, OLD.title, OLD.body, OLD.cjk);
    INSERT INTO documents_trigrams (documents_trigrams, rowid, title, body)
        VALUES ('delete', OLD.seq, OLD.title, OLD.body);
END;

CREATE TRIGGER documents_search_update AFTER UPDATE OF title, body, cjk ON documents BEGIN
    INSERT INTO documents_words (documents_words, rowid, title, body, cjk)
        VALUES ('delete', OLD.seq, OLD.title, OLD.body, OLD.cjk);
    INSERT INTO documents_trigrams (documents_trigrams, rowid, title, body)
        VALUES ('delete', OLD.seq, OLD.title, OLD.body);
    INSERT INTO documents_words (rowid, title, body, cjk)
        VALUES (NEW.seq, NEW.title, NEW.body, NEW.cjk);
    INSERT INTO documents_trigrams (rowid, title, body)
        VALUES (NEW.seq, NEW.title, NEW.body);
END;
