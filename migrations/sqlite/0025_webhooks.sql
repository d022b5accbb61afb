-- Webhooks: addresses told of events by signed HTTP posts, and each post
-- waiting, tried and answered (the outbox of deliveries).

-- A hook: where it posts, the secret that signs each post, the events it
-- wants (space-separated names), and whose rights bound what it is told: its
-- maker's (an admin's hook hears of every space, `space_id` NULL; a space
-- manager's of that space only).
CREATE TABLE webhooks (
    id         INTEGER PRIMARY KEY,
    url        TEXT NOT NULL,
    secret     TEXT NOT NULL,
    events     TEXT NOT NULL,
    space_id   INTEGER REFERENCES spaces (id) ON DELETE CASCADE,
    owner_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
) STRICT;

-- One event for one hook: its body as sent, when it is next tried (NULL:
-- delivered or given up), and how the last try went.
CREATE TABLE webhook_deliveries (
    id            INTEGER PRIMARY KEY,
    hook_id       INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event         TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    next_try_at   INTEGER,
    tries         INTEGER NOT NULL DEFAULT 0,
    status        INTEGER,
    answer_ms     INTEGER,
    error         TEXT,
    sent_at       INTEGER,
    claimed_until INTEGER
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_try_at) WHERE next_try_at IS NOT NULL;
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (hook_id, id);
