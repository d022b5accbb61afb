-- PostgreSQL twin of migrations/sqlite/0014_links.sql: links between
-- documents, their targets stored with the page (`links`, a JSON array of
-- keys) and `document_links` kept from it by triggers. Keys fold ASCII
-- capitals only, as SQLite's `lower` does.
ALTER TABLE documents ADD COLUMN links TEXT NOT NULL DEFAULT '[]';

CREATE TABLE document_links (
    from_seq BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    target   TEXT NOT NULL,
    to_seq   BIGINT REFERENCES documents (seq) ON DELETE SET NULL,
    PRIMARY KEY (from_seq, target)
);
CREATE INDEX document_links_to ON document_links (to_seq) WHERE to_seq IS NOT NULL;
CREATE INDEX document_links_waiting ON document_links (target) WHERE to_seq IS NULL;

CREATE FUNCTION quire_ascii_lower(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$;
CREATE INDEX documents_by_title_key ON documents (quire_ascii_lower(title)) WHERE deleted_at IS NULL;

CREATE FUNCTION quire_document_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM document_links WHERE from_seq = NEW.seq
            AND target NOT IN (SELECT jsonb_array_elements_text(NEW.links::jsonb));
    END IF;
    INSERT INTO document_links (from_seq, target, to_seq)
        SELECT NEW.seq, k, coalesce(
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND quire_ascii_lower(t.title) = k
              ORDER BY t.owner_id IS DISTINCT FROM NEW.owner_id, t.seq LIMIT 1),
            (SELECT t.seq FROM documents AS t
              WHERE t.deleted_at IS NULL AND position('/' in k) > 0
                AND quire_ascii_lower(t.title) = substring(k from '[^/]*$')
                AND quire_ascii_lower(t.folder) = substring(k from '^(.*)/')
              ORDER BY t.owner_id IS DISTINCT FROM NEW.owner_id, t.seq LIMIT 1))
        FROM (SELECT DISTINCT jsonb_array_elements_text(NEW.links::jsonb) AS k) AS keys
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_links_insert AFTER INSERT ON documents
    FOR EACH ROW WHEN (NEW.links <> '[]') EXECUTE FUNCTION quire_document_links();
CREATE TRIGGER documents_links_update AFTER UPDATE OF links ON documents
    FOR EACH ROW WHEN (NEW.links IS DISTINCT FROM OLD.links) EXECUTE FUNCTION quire_document_links();

CREATE FUNCTION quire_links_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE document_links SET to_seq = NEW.seq
        WHERE to_seq IS NULL
          AND target IN (quire_ascii_lower(NEW.title),
                         quire_ascii_lower(NEW.folder) || '/' || quire_ascii_lower(NEW.title));
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_links_waiting_insert AFTER INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION quire_links_waiting();
CREATE TRIGGER documents_links_waiting_named AFTER UPDATE OF title, folder ON documents
    FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM OLD.title OR NEW.folder IS DISTINCT FROM OLD.folder)
    EXECUTE FUNCTION quire_links_waiting();
