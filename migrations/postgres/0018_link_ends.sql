-- PostgreSQL twin of migrations/sqlite/0018_link_ends.sql: where a link leads
-- is decided for each reader among the documents they may read.
-- `document_links` keeps one row per link (`to_seq` no longer used, NULL);
-- `document_link_ends` holds every document that has had a link's title while
-- the link existed (taking it while not in the trash).
DROP TRIGGER IF EXISTS documents_links_insert ON documents;
DROP TRIGGER IF EXISTS documents_links_update ON documents;
DROP TRIGGER IF EXISTS documents_links_waiting_insert ON documents;
DROP TRIGGER IF EXISTS documents_links_waiting_named ON documents;
DROP FUNCTION IF EXISTS quire_links_waiting();
DROP INDEX IF EXISTS document_links_waiting;
CREATE INDEX document_links_by_target ON document_links (target);

CREATE TABLE document_link_ends (
    from_seq BIGINT NOT NULL,
    target   TEXT NOT NULL,
    to_seq   BIGINT NOT NULL REFERENCES documents (seq) ON DELETE CASCADE,
    PRIMARY KEY (from_seq, target, to_seq),
    FOREIGN KEY (from_seq, target) REFERENCES document_links (from_seq, target) ON DELETE CASCADE
);
CREATE INDEX document_link_ends_to ON document_link_ends (to_seq, from_seq);

INSERT INTO document_link_ends (from_seq, target, to_seq)
    SELECT from_seq, target, to_seq FROM document_links WHERE to_seq IS NOT NULL
    ON CONFLICT DO NOTHING;
UPDATE document_links SET to_seq = NULL WHERE to_seq IS NOT NULL;

INSERT INTO document_link_ends (from_seq, target, to_seq)
    SELECT l.from_seq, l.target, t.seq FROM document_links AS l
      JOIN documents AS t ON quire_ascii_lower(t.title) = l.target
     WHERE t.deleted_at IS NULL
    ON CONFLICT DO NOTHING;
INSERT INTO document_link_ends (from_seq, target, to_seq)
    SELECT l.from_seq, l.target, t.seq FROM document_links AS l
      JOIN documents AS t
        ON quire_ascii_lower(t.title) = substring(l.target from '[^/]*$')
       AND quire_ascii_lower(t.folder) = substring(l.target from '^(.*)/')
     WHERE position('/' in l.target) > 0 AND t.deleted_at IS NULL
    ON CONFLICT DO NOTHING;

-- A page's links, and the documents that have each new one's title now.
CREATE OR REPLACE FUNCTION quire_document_links() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_links text := '[]';
BEGIN
    IF TG_OP = 'UPDATE' THEN
        old_links := OLD.links;
        DELETE FROM document_links WHERE from_seq = NEW.seq
            AND target NOT IN (SELECT jsonb_array_elements_text(NEW.links::jsonb));
    END IF;
    INSERT INTO document_links (from_seq, target)
        SELECT DISTINCT NEW.seq, jsonb_array_elements_text(NEW.links::jsonb)
        ON CONFLICT DO NOTHING;
    WITH keys AS (
        SELECT jsonb_array_elements_text(NEW.links::jsonb) AS k
        EXCEPT
        SELECT jsonb_array_elements_text(old_links::jsonb)
    )
    INSERT INTO document_link_ends (from_seq, target, to_seq)
        SELECT NEW.seq, k, t.seq FROM keys
          JOIN documents AS t ON quire_ascii_lower(t.title) = k
         WHERE t.deleted_at IS NULL
        UNION ALL
        SELECT NEW.seq, k, t.seq FROM keys
          JOIN documents AS t
            ON quire_ascii_lower(t.title) = substring(k from '[^/]*$')
           AND quire_ascii_lower(t.folder) = substring(k from '^(.*)/')
         WHERE position('/' in k) > 0 AND t.deleted_at IS NULL
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_links_insert AFTER INSERT ON documents
    FOR EACH ROW WHEN (NEW.links <> '[]') EXECUTE FUNCTION quire_document_links();
CREATE TRIGGER documents_links_update AFTER UPDATE OF links ON documents
    FOR EACH ROW WHEN (NEW.links IS DISTINCT FROM OLD.links) EXECUTE FUNCTION quire_document_links();

-- A new document, one given a new title or folder, and one back from the
-- trash may be where each link to its title leads, whoever wrote the link.
CREATE FUNCTION quire_links_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO document_link_ends (from_seq, target, to_seq)
        SELECT l.from_seq, l.target, NEW.seq FROM document_links AS l
         WHERE l.target IN (quire_ascii_lower(NEW.title),
                            quire_ascii_lower(NEW.folder) || '/' || quire_ascii_lower(NEW.title))
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER documents_links_taken_insert AFTER INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION quire_links_taken();
CREATE TRIGGER documents_links_taken_update AFTER UPDATE OF title, folder, deleted_at ON documents
    FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM OLD.title OR NEW.folder IS DISTINCT FROM OLD.folder
                       OR (OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL))
    EXECUTE FUNCTION quire_links_taken();
