-- PostgreSQL twin of migrations/sqlite/0015_attachments.sql: files attached
-- to documents, each distinct content once by its SHA-256 (`bytea`), named by
-- each document that uses it.
CREATE TABLE attachments (
    hash       BYTEA PRIMARY KEY,
    size       BIGINT NOT NULL,
    media_type TEXT NOT NULL,
    bytes      BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
ALTER TABLE attachments ALTER COLUMN bytes SET STORAGE EXTERNAL;

CREATE TABLE document_files (
    doc_seq    BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    hash       BYTEA NOT NULL REFERENCES attachments (hash),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (doc_seq, name)
);
CREATE INDEX document_files_by_hash ON document_files (hash);
