-- PostgreSQL twin of migrations/sqlite/0024_space_rules.sql.
ALTER TABLE spaces ADD COLUMN comment_role BIGINT NOT NULL DEFAULT 1 CHECK (comment_role IN (1, 2));
ALTER TABLE spaces ADD COLUMN review_required BIGINT NOT NULL DEFAULT 0 CHECK (review_required IN (0, 1));
