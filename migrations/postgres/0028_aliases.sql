-- PostgreSQL twin of migrations/sqlite/0028_aliases.sql.
ALTER TABLE documents ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';

CREATE TABLE document_aliases (
    alias   TEXT NOT NULL,
    doc_seq BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (alias, doc_seq)
);
CREATE INDEX document_aliases_by_doc ON document_aliases (doc_seq);

CREATE FUNCTION quire_document_aliases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM document_aliases WHERE doc_seq = NEW.seq
            AND alias NOT IN (SELECT jsonb_array_elements_text(NEW.aliases::jsonb));
    END IF;
    INSERT INTO document_aliases (alias, doc_seq)
        SELECT DISTINCT jsonb_array_elements_text(NEW.aliases::jsonb), NEW.seq
        ON CONFLICT DO NOTHING;
    IF NEW.deleted_at IS NULL THEN
        INSERT INTO document_link_ends (from_seq, target, to_seq)
            SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
             WHERE l.target IN (SELECT jsonb_array_elements_text(NEW.aliases::jsonb))
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_aliases_insert AFTER INSERT ON documents
    FOR EACH ROW WHEN (NEW.aliases <> '[]') EXECUTE FUNCTION quire_document_aliases();
CREATE TRIGGER documents_aliases_update AFTER UPDATE OF aliases ON documents
    FOR EACH ROW WHEN (NEW.aliases IS DISTINCT FROM OLD.aliases)
    EXECUTE FUNCTION quire_document_aliases();
CREATE TRIGGER documents_aliases_restored AFTER UPDATE OF deleted_at ON documents
    FOR EACH ROW WHEN (OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL
                       AND NEW.aliases <> '[]')
    EXECUTE FUNCTION quire_document_aliases();

CREATE FUNCTION quire_links_to_aliases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.from_seq, NEW.target, a.doc_seq FROM document_aliases AS a
          JOIN documents AS t ON t.seq = a.doc_seq
         WHERE a.alias = NEW.target AND t.deleted_at IS NULL
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER document_links_to_aliases AFTER INSERT ON document_links
    FOR EACH ROW EXECUTE FUNCTION quire_links_to_aliases();
