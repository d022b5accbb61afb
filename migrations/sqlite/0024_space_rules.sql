-- Who may comment in a space: 1 everyone who may read (the default), 2 only
-- those who may edit.
ALTER TABLE spaces ADD COLUMN comment_role INTEGER NOT NULL DEFAULT 1 CHECK (comment_role IN (1, 2));
-- 1: changes are reviewed: only the space's managers and each document's owner
-- save; everyone else who could edit suggests.
ALTER TABLE spaces ADD COLUMN review_required INTEGER NOT NULL DEFAULT 0 CHECK (review_required IN (0, 1));
