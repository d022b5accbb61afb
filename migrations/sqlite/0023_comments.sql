-- Talking about documents: comments under each document (replies one level
-- deep), which the notifier tells watchers and the people they mention of.

-- A comment in Markdown (`body`) and as its page shows it (`html`, rendered
-- and sanitised when written). `quote` is the passage of the document it was
-- written about, kept as it was then. A deleted comment that has replies
-- keeps its row (`deleted_at`, its text emptied) so they stay in place.
CREATE TABLE comments (
    id          INTEGER PRIMARY KEY,
    doc_seq     INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    parent_id   INTEGER REFERENCES comments (id) ON DELETE CASCADE,
    author_id   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    author      TEXT NOT NULL,
    body        TEXT NOT NULL,
    html        TEXT NOT NULL,
    quote       TEXT,
    created_at  INTEGER NOT NULL,
    edited_at   INTEGER,
    resolved_at INTEGER,
    resolved_by TEXT,
    deleted_at  INTEGER
) STRICT;
CREATE INDEX comments_by_document ON comments (doc_seq, id);
CREATE INDEX comments_by_parent ON comments (parent_id) WHERE parent_id IS NOT NULL;

-- The queue and the inbox learn of comments and suggested edits, and the queue of a document's
-- other events (`kind` 'event': trashed, restored, deleted, moved, named with
-- what is needed to tell of them in `detail`, JSON): SQLite cannot change a CHECK, so
-- both tables are made again with their rows (nothing refers to either; the
-- revisions' trigger that fills the queue is made again after it).
DROP TRIGGER revisions_queue_change;
CREATE TABLE change_queue_next (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('rev', 'share', 'space', 'comment', 'event', 'suggestion')),
    doc_seq    INTEGER,
    rev        INTEGER,
    space_id   INTEGER,
    user_id    INTEGER,
    group_id   INTEGER,
    actor_id   INTEGER,
    created_at INTEGER NOT NULL,
    comment_id INTEGER,
    detail     TEXT
) STRICT;
INSERT INTO change_queue_next (id, kind, doc_seq, rev, space_id, user_id, group_id, actor_id, created_at)
    SELECT id, kind, doc_seq, rev, space_id, user_id, group_id, actor_id, created_at FROM change_queue;
DROP TABLE change_queue;
ALTER TABLE change_queue_next RENAME TO change_queue;
CREATE TRIGGER revisions_queue_change AFTER INSERT ON revisions BEGIN
    INSERT INTO change_queue (kind, doc_seq, rev, created_at)
    VALUES ('rev', NEW.doc_seq, NEW.rev, NEW.created_at);
END;

CREATE TABLE notices_next (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('edited', 'shared', 'mentioned', 'space',
                                             'commented', 'comment_mention', 'suggested',
                                             'suggestion_accepted', 'suggestion_declined')),
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
INSERT INTO notices_next SELECT * FROM notices;
DROP TABLE notices;
ALTER TABLE notices_next RENAME TO notices;
CREATE INDEX notices_by_user ON notices (user_id, read_at, updated_at);
CREATE UNIQUE INDEX notices_unread_per_document ON notices (user_id, doc_seq, kind)
    WHERE read_at IS NULL AND doc_seq IS NOT NULL;
CREATE INDEX notices_by_document ON notices (doc_seq) WHERE doc_seq IS NOT NULL;
