-- Knowing what changed: who watches what, the queue of changes waiting to be
-- told, and each person's notices (the inbox).

-- A person watching one document (`watching` 1), or having said not to
-- (`watching` 0: watching what one edits leaves that alone, and a watched
-- space or folder does not reach them for this document).
CREATE TABLE document_watches (
    doc_seq    INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    watching   INTEGER NOT NULL CHECK (watching IN (0, 1)),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (doc_seq, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_watches_by_user ON document_watches (user_id);

-- A person watching a space (`folder` '') or a folder of it and its subfolders.
CREATE TABLE place_watches (
    space_id   INTEGER NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    folder     TEXT NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (space_id, folder, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX place_watches_by_user ON place_watches (user_id);

-- Changes not yet told: a revision (`kind` 'rev', written by the trigger below
-- in the save's own transaction), a document shared with a person or group
-- ('share'), a person or group added to a space ('space'). The notifier takes
-- them in order, makes the notices and deletes them, in one transaction. (No
-- AUTOINCREMENT: its bookkeeping would be one more write in every save.)
CREATE TABLE change_queue (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('rev', 'share', 'space')),
    doc_seq    INTEGER,
    rev        INTEGER,
    space_id   INTEGER,
    user_id    INTEGER,
    group_id   INTEGER,
    actor_id   INTEGER,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TRIGGER revisions_queue_change AFTER INSERT ON revisions BEGIN
    INSERT INTO change_queue (kind, doc_seq, rev, created_at)
    VALUES ('rev', NEW.doc_seq, NEW.rev, NEW.created_at);
END;

-- What reached a person. An unread notice of one kind about one document
-- gathers later changes of that kind (`count`, `last_rev`, the last `actor`).
CREATE TABLE notices (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('edited', 'shared', 'mentioned', 'space')),
    doc_seq    INTEGER REFERENCES documents (seq) ON DELETE CASCADE,
    space_id   INTEGER REFERENCES spaces (id) ON DELETE CASCADE,
    actor      TEXT,
    first_rev  INTEGER,
    last_rev   INTEGER,
    count      INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    read_at    INTEGER,
    mailed_at  INTEGER
) STRICT;
CREATE INDEX notices_by_user ON notices (user_id, read_at, updated_at);
CREATE UNIQUE INDEX notices_unread_per_document ON notices (user_id, doc_seq, kind)
    WHERE read_at IS NULL AND doc_seq IS NOT NULL;
CREATE INDEX notices_by_document ON notices (doc_seq) WHERE doc_seq IS NOT NULL;

-- Recent changes read revisions newest first.
CREATE INDEX revisions_by_time ON revisions (created_at);

-- 1: watch what one creates, edits or is mentioned in (the default).
ALTER TABLE users ADD COLUMN watch_own INTEGER NOT NULL DEFAULT 1 CHECK (watch_own IN (0, 1));
-- When the person last looked at recent changes ("since your last visit").
ALTER TABLE users ADD COLUMN changes_seen_at INTEGER;
-- The person's feed of recent changes is opened by a token; only its hash is kept.
ALTER TABLE users ADD COLUMN feed_token_hash BLOB;
CREATE UNIQUE INDEX users_by_feed_token ON users (feed_token_hash) WHERE feed_token_hash IS NOT NULL;

-- Who has a document open in an editor, as its editors last said (every few
-- seconds while the editor is open): shown to the others.
CREATE TABLE editing_now (
    doc_seq INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (doc_seq, user_id)
) STRICT, WITHOUT ROWID;

-- Mail: where a person's notices go, how often ('instant', 'hourly', 'daily',
-- 'off'), the key of their unsubscribe links, and when their last mail was
-- written.
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN mail_every TEXT NOT NULL DEFAULT 'daily'
    CHECK (mail_every IN ('instant', 'hourly', 'daily', 'off'));
ALTER TABLE users ADD COLUMN mail_key TEXT;
ALTER TABLE users ADD COLUMN mailed_at INTEGER;
CREATE UNIQUE INDEX users_by_mail_key ON users (mail_key) WHERE mail_key IS NOT NULL;

-- Mail waiting to be sent, written from notices in one transaction with
-- marking them mailed; a sender claims a row for a while (`claimed_until`),
-- sends it and marks it sent, or tries again later (`next_try_at`), up to a
-- limit (`failed_at`).
CREATE TABLE mail_outbox (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER REFERENCES users (id) ON DELETE CASCADE,
    to_addr       TEXT NOT NULL,
    subject       TEXT NOT NULL,
    text_body     TEXT NOT NULL,
    html_body     TEXT NOT NULL,
    unsubscribe   TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    next_try_at   INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_until INTEGER,
    sent_at       INTEGER,
    failed_at     INTEGER,
    last_error    TEXT
) STRICT;
CREATE INDEX mail_outbox_due ON mail_outbox (next_try_at)
    WHERE sent_at IS NULL AND failed_at IS NULL;
