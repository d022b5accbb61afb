-- Files attached to documents (images, PDFs, anything), stored inline so that
-- replication, backups, export and import carry them like the text.
-- `attachments` holds each distinct content once, by its SHA-256; a
-- document's files name one each (`document_files`), by the name its text
-- uses (`![](photo.png)`, `![[photo.png]]`). A file is readable exactly when
-- its document is; content no document names any more is deleted by quire
-- when documents are purged.
CREATE TABLE attachments (
    hash       BLOB PRIMARY KEY,
    size       INTEGER NOT NULL,
    -- What the content was sniffed as; '' is served as a download.
    media_type TEXT NOT NULL,
    bytes      BLOB NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE document_files (
    doc_seq    INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    hash       BLOB NOT NULL REFERENCES attachments (hash),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (doc_seq, name)
) STRICT, WITHOUT ROWID;
-- Which documents still name a content (collecting the unnamed ones).
CREATE INDEX document_files_by_hash ON document_files (hash);
