-- PostgreSQL twin of migrations/sqlite/0024_comment_rule.sql.
ALTER TABLE spaces ADD COLUMN comment_role BIGINT NOT NULL DEFAULT 1 CHECK (comment_role IN (1, 2));
