-- Single sign-on: who an identity provider says a person is, linked to one quire
-- account. `issuer` names the provider (`header` for a trusted proxy's header),
-- `subject` its lasting name for the person; an account is found by these two,
-- never by an email or a user name alone.
CREATE TABLE identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT;
CREATE INDEX identities_by_user ON identities (user_id);

-- A group the provider keeps in step (its issuer), or NULL for one made in quire.
ALTER TABLE user_groups ADD COLUMN managed_by TEXT;
