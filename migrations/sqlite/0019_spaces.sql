-- Team spaces, groups and invitations.
--
-- A space is a named shared place with members, each with a role: 1 read,
-- 2 edit, 3 manage (name, members, moving documents out). A member is a person
-- or a group. A document lives in one space (`documents.space_id`), or in its
-- owner's personal space (NULL), which only the owner reads. The named shares,
-- "everyone signed in" and public links stay as exceptions for one document.
-- Who may do what is decided in `db::documents::access`.
CREATE TABLE spaces (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    -- The role every new account is given here, or NULL: members are added by hand.
    default_role INTEGER CHECK (default_role IN (1, 2, 3)),
    created_at   INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX spaces_by_name ON spaces (name COLLATE NOCASE);

CREATE TABLE user_groups (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX user_groups_by_name ON user_groups (name COLLATE NOCASE);

CREATE TABLE group_members (
    group_id INTEGER NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_members_by_user ON group_members (user_id, group_id);

CREATE TABLE space_members (
    id       INTEGER PRIMARY KEY,
    space_id INTEGER NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    user_id  INTEGER REFERENCES users (id) ON DELETE CASCADE,
    group_id INTEGER REFERENCES user_groups (id) ON DELETE CASCADE,
    role     INTEGER NOT NULL CHECK (role IN (1, 2, 3)),
    CHECK ((user_id IS NULL) <> (group_id IS NULL))
) STRICT;
CREATE UNIQUE INDEX space_members_person ON space_members (space_id, user_id)
    WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX space_members_group ON space_members (space_id, group_id)
    WHERE group_id IS NOT NULL;
-- A reader's spaces, found once per listing or page.
CREATE INDEX space_members_by_user ON space_members (user_id, space_id, role);
CREATE INDEX space_members_by_group ON space_members (group_id, space_id, role);

-- One document shared with a whole group.
CREATE TABLE document_group_shares (
    doc_seq  INTEGER NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    group_id INTEGER NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
    can_edit INTEGER NOT NULL CHECK (can_edit IN (0, 1)),
    PRIMARY KEY (doc_seq, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_group_shares_by_group ON document_group_shares (group_id);

-- A removed space's documents go back to their owners' personal spaces.
ALTER TABLE documents ADD COLUMN space_id INTEGER REFERENCES spaces (id) ON DELETE SET NULL;
CREATE INDEX documents_by_space ON documents (space_id) WHERE space_id IS NOT NULL;

-- The space a person last made a document in (0: their personal space; NULL:
-- none yet), where "New document" from the top puts the next one.
ALTER TABLE users ADD COLUMN last_space_id INTEGER;

-- One-use links: 'join' makes a new account (joining the spaces and groups it
-- names, as JSON arrays of [space id, role] and of group ids); 'reset' sets a new
-- password for `for_user`. Only a hash of the token is stored.
CREATE TABLE invitations (
    token_hash  BLOB PRIMARY KEY NOT NULL CHECK (length(token_hash) = 32),
    kind        TEXT NOT NULL CHECK (kind IN ('join', 'reset')),
    for_user    INTEGER REFERENCES users (id) ON DELETE CASCADE,
    created_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    space_roles TEXT NOT NULL DEFAULT '[]',
    group_ids   TEXT NOT NULL DEFAULT '[]',
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER,
    used_by     INTEGER REFERENCES users (id) ON DELETE SET NULL
) STRICT, WITHOUT ROWID;

-- The team space every account is a member of, with edit. An upgrade keeps
-- every right: each person's private documents stay in their personal space;
-- those every signed-in person may edit (and those without an owner) move to
-- the team space, where everyone has edit. Those everyone may only read stay
-- with their owner, still open to everyone to read: in the team space everyone
-- would gain edit.
INSERT INTO spaces (name, default_role, created_at)
    VALUES ('Team', 2, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
INSERT INTO space_members (space_id, user_id, role)
    SELECT (SELECT id FROM spaces WHERE name = 'Team'), id, 2 FROM users;
UPDATE documents SET space_id = (SELECT id FROM spaces WHERE name = 'Team')
    WHERE owner_id IS NULL OR visibility = 'edit';

-- The listings and the access filter read `space_id` with every row: the
-- covering indexes of 0006, 0012 and 0013 hold it too, so a list page, its
-- counts and a search still read no document rows (without it, every row's
-- 8 KB text was read past to find its space).
DROP INDEX IF EXISTS documents_access;
CREATE INDEX documents_access ON documents (seq, deleted_at, owner_id, visibility, space_id);
DROP INDEX IF EXISTS documents_listing;
CREATE INDEX documents_listing
    ON documents (updated_at DESC, id, title, size, deleted_at, owner_id, visibility, folder, space_id)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS documents_listing_by_created;
CREATE INDEX documents_listing_by_created
    ON documents (created_at DESC, id, title, size, updated_at, deleted_at, owner_id, visibility, folder, space_id)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS documents_listing_by_title;
CREATE INDEX documents_listing_by_title
    ON documents (lower(title), id, title, size, updated_at, deleted_at, owner_id, visibility, folder, space_id)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS documents_in_folder;
CREATE INDEX documents_in_folder
    ON documents (folder, updated_at DESC, id, title, size, created_at, owner_id, visibility, space_id)
    WHERE deleted_at IS NULL;
