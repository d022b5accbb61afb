-- PostgreSQL twin of migrations/sqlite/0027_templates.sql.
CREATE TABLE templates (
    doc_seq    BIGINT PRIMARY KEY REFERENCES documents (seq) ON DELETE CASCADE,
    marked_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE place_templates (
    space_id   BIGINT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    folder     TEXT NOT NULL,
    doc_seq    BIGINT NOT NULL REFERENCES templates (doc_seq) ON DELETE CASCADE,
    set_by     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (space_id, folder)
);
CREATE INDEX place_templates_by_doc ON place_templates (doc_seq);
