-- PostgreSQL twin of migrations/sqlite/0017_new_drafts.sql.
CREATE TABLE new_drafts (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key        TEXT NOT NULL CHECK (char_length(key) BETWEEN 16 AND 64),
    title      TEXT NOT NULL CHECK (char_length(title) <= 200),
    body       TEXT NOT NULL CHECK (octet_length(body) <= 67108864),
    folder     TEXT NOT NULL CHECK (char_length(folder) <= 1000),
    tags       TEXT NOT NULL CHECK (char_length(tags) <= 4000),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);

CREATE TRIGGER new_drafts_body_cap BEFORE INSERT OR UPDATE OF body ON new_drafts
    FOR EACH ROW EXECUTE FUNCTION quire_body_cap('new draft');
