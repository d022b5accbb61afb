-- PostgreSQL twin of migrations/sqlite/0005_drafts.sql.
CREATE TABLE drafts (
    doc_seq      BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT NOT NULL CHECK (char_length(title) <= 200),
    body         TEXT NOT NULL CHECK (octet_length(body) <= 67108864),
    base_version BIGINT NOT NULL CHECK (base_version >= 1),
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (doc_seq, user_id)
);
CREATE INDEX drafts_by_user ON drafts (user_id);

CREATE TRIGGER drafts_body_cap BEFORE INSERT OR UPDATE OF body ON drafts
    FOR EACH ROW EXECUTE FUNCTION quire_body_cap('draft');
