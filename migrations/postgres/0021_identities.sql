-- Single sign-on: see sqlite/0021_identities.sql.
CREATE TABLE identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX identities_by_user ON identities (user_id);

ALTER TABLE user_groups ADD COLUMN managed_by TEXT;
