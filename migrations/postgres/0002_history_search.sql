-- PostgreSQL twin of migrations/sqlite/0002_history_search.sql. Revisions are
-- stored exactly as on SQLite (zstd texts keyed by SHA-256). Search: a tsvector
-- column with a GIN index for words (title weighted above text), and a pg_trgm GIN
-- index for parts of words; both fold accents like SQLite's remove_diacritics.
CREATE TABLE revision_texts (
    doc_seq    BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    hash       BYTEA NOT NULL CHECK (length(hash) = 32),
    base       BYTEA,
    depth      BIGINT NOT NULL CHECK (depth >= 0),
    raw_size   BIGINT NOT NULL,
    data       BYTEA NOT NULL,
    PRIMARY KEY (doc_seq, hash),
    FOREIGN KEY (doc_seq, base) REFERENCES revision_texts (doc_seq, hash),
    CHECK ((base IS NULL) = (depth = 0))
);

CREATE TABLE revisions (
    doc_seq    BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    rev        BIGINT NOT NULL CHECK (rev >= 1),
    title      TEXT NOT NULL,
    text_hash  BYTEA NOT NULL,
    size       BIGINT NOT NULL,
    added      BIGINT NOT NULL,
    removed    BIGINT NOT NULL,
    author     TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (doc_seq, rev),
    FOREIGN KEY (doc_seq, text_hash) REFERENCES revision_texts (doc_seq, hash)
);

ALTER TABLE documents ADD COLUMN cjk TEXT NOT NULL DEFAULT '';

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is only STABLE (its dictionary could change); quire pins the
-- dictionary so indexes may use it.
CREATE FUNCTION quire_fold(t TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;

-- A tsvector holds at most 1 MB: the word index covers the first 256 KiB of text
-- (the default size cap); the substring search below reads all of it.
ALTER TABLE documents ADD COLUMN words tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, quire_fold(title)), 'A') ||
    setweight(to_tsvector('simple'::regconfig, quire_fold(left(body, 262144))), 'B') ||
    setweight(to_tsvector('simple'::regconfig, cjk), 'C')
) STORED;
CREATE INDEX documents_words ON documents USING gin (words);
-- Parts of words: the folded text is stored (computed once per save), so checking
-- a candidate the trigram index found is a plain LIKE, not unaccent() over the
-- whole text again (10x faster where a part of a word is in most documents).
ALTER TABLE documents ADD COLUMN folded TEXT GENERATED ALWAYS AS (
    quire_fold(title || ' ' || body)
) STORED;
CREATE INDEX documents_trigrams ON documents USING gin (folded gin_trgm_ops);
