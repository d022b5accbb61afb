-- Templates: documents marked as starting points for new ones, offered on the New
-- page to whoever may read them; and the template a space (`folder` '') or a
-- folder of it (and its subfolders) starts its new documents from.
CREATE TABLE templates (
    doc_seq    INTEGER PRIMARY KEY REFERENCES documents (seq) ON DELETE CASCADE,
    marked_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE place_templates (
    space_id   INTEGER NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    folder     TEXT NOT NULL,
    doc_seq    INTEGER NOT NULL REFERENCES templates (doc_seq) ON DELETE CASCADE,
    set_by     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (space_id, folder)
) STRICT, WITHOUT ROWID;
CREATE INDEX place_templates_by_doc ON place_templates (doc_seq);
