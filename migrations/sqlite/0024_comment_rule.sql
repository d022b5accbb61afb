-- Who may comment in a space: 1 everyone who may read (the default), 2 only
-- those who may edit.
ALTER TABLE spaces ADD COLUMN comment_role INTEGER NOT NULL DEFAULT 1 CHECK (comment_role IN (1, 2));
