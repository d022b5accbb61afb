-- People who may sign in. Usernames compare without case.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE COLLATE NOCASE
                  CHECK (length(username) BETWEEN 1 AND 64),
    password_hash TEXT NOT NULL,
    is_admin      INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    disabled_at   INTEGER,
    created_at    INTEGER NOT NULL
) STRICT;

-- Sessions live in the database so any instance can check them. Only a hash of the
-- cookie's token is stored: a copy of the database does not let anyone sign in.
CREATE TABLE sessions (
    token_hash  BLOB PRIMARY KEY NOT NULL CHECK (length(token_hash) = 32),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX sessions_by_user ON sessions (user_id);

-- Failed sign-ins, for rate limiting per account and per address across instances.
CREATE TABLE login_failures (
    key  TEXT NOT NULL,
    at   INTEGER NOT NULL
) STRICT;
CREATE INDEX login_failures_by_key ON login_failures (key, at);

-- Security events an admin can review.
CREATE TABLE audit_log (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    user_id  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    event    TEXT NOT NULL,
    detail   TEXT NOT NULL DEFAULT ''
) STRICT;

ALTER TABLE documents ADD COLUMN owner_id INTEGER REFERENCES users (id) ON DELETE SET NULL;

-- Who may see a document besides its owner: nobody ('private'), every signed-in
-- user to read ('read') or to edit ('edit'), plus named users in document_shares.
-- Documents without an owner (imported or seeded from the command line) are
-- treated as 'edit' for every signed-in user.
ALTER TABLE documents ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private'
    CHECK (visibility IN ('private', 'read', 'edit'));
-- An unguessable token for a read-only public link; NULL when there is none.
ALTER TABLE documents ADD COLUMN public_token TEXT;
CREATE UNIQUE INDEX documents_by_public_token ON documents (public_token)
    WHERE public_token IS NOT NULL;

CREATE TABLE document_shares (
    doc_seq  INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    can_edit INTEGER NOT NULL CHECK (can_edit IN (0, 1)),
    PRIMARY KEY (doc_seq, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_shares_by_user ON document_shares (user_id);
