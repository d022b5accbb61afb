-- Stored texts of revisions move to a rowid table. As `WITHOUT ROWID` their rows
-- lived in the key's b-tree, where a row keeps only ~1 KB on its page: each
-- compressed text of 1.5-3 KB spilled onto an overflow page of its own, and the
-- table weighed 1.14x the Markdown it compressed (benches/db-size.py, 100,000
-- imported 4 KB documents). A rowid table keeps up to ~4 KB in the row; the key
-- becomes a unique index, which the foreign keys of `revisions` and of deltas
-- (`base`) point at as before.
--
-- Both tables are rebuilt and renamed in this step's transaction (a table that
-- another one refers to cannot be dropped under it while foreign keys are on, and
-- they cannot be turned off inside a transaction): the new `revisions` points at
-- the new texts, the old pair is dropped child first, the new pair renamed.
PRAGMA defer_foreign_keys = ON;

CREATE TABLE revision_texts_new (
    doc_seq    INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    hash       BLOB NOT NULL CHECK (length(hash) = 32),
    base       BLOB,
    depth      INTEGER NOT NULL CHECK (depth >= 0),
    raw_size   INTEGER NOT NULL,
    data       BLOB NOT NULL,
    UNIQUE (doc_seq, hash),
    FOREIGN KEY (doc_seq, base) REFERENCES revision_texts_new (doc_seq, hash),
    CHECK ((base IS NULL) = (depth = 0))
) STRICT;

-- Snapshots before the deltas made against them, so each `base` is there first.
INSERT INTO revision_texts_new (doc_seq, hash, base, depth, raw_size, data)
    SELECT doc_seq, hash, base, depth, raw_size, data FROM revision_texts
    ORDER BY doc_seq, depth;

CREATE TABLE revisions_new (
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
    FOREIGN KEY (doc_seq, text_hash) REFERENCES revision_texts_new (doc_seq, hash)
) STRICT, WITHOUT ROWID;

INSERT INTO revisions_new SELECT doc_seq, rev, title, text_hash, size, added, removed,
    author, created_at FROM revisions;

DROP TABLE revisions;
DROP TABLE revision_texts;
ALTER TABLE revision_texts_new RENAME TO revision_texts;
ALTER TABLE revisions_new RENAME TO revisions;
