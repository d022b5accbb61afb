-- PostgreSQL's search columns leave the save's transaction, as SQLite's did in
-- 0008. A save computed its `tsvector` and folded text as generated columns
-- and put every word and every trigram of the whole text into two GIN indexes,
-- even for a one-word edit: a third of PostgreSQL's work under many saves
-- (docs/PERFORMANCE.md, "PostgreSQL's search after the commit"). Now a save
-- queues its document's `seq`, in its own transaction, and the search indexer
-- (`db::search::queue`) computes both for a batch of documents, each once
-- however often it was saved meanwhile, into a table of their own.
--
-- The queue has a row per save, not per document: the indexer deletes the rows
-- it read and the documents as they were when it read them; a save committed
-- after that has a row of its own, so it is never lost between the two.
-- An instance still running the release before cannot save between the copy
-- below and the trigger that queues its saves.
LOCK TABLE documents IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE search_queue (
    id  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    seq BIGINT NOT NULL
);

-- A document's search columns: one row per document, made by the indexer.
CREATE TABLE document_search (
    seq    BIGINT PRIMARY KEY,
    words  tsvector NOT NULL,
    folded TEXT NOT NULL
);

DO $$
BEGIN
    ALTER TABLE document_search
        ALTER COLUMN folded SET COMPRESSION lz4,
        ALTER COLUMN words SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available here: TOAST keeps pglz';
END $$;

-- What the documents hold now is already computed: copied, not computed again.
INSERT INTO document_search (seq, words, folded) SELECT seq, words, folded FROM documents;

CREATE INDEX document_search_words ON document_search USING gin (words);
CREATE INDEX document_search_trigrams ON document_search USING gin (folded gin_trgm_ops);

-- The vocabulary (0029) follows the words where they are now kept.
DROP TRIGGER documents_search_words ON documents;
CREATE TRIGGER document_search_words AFTER INSERT OR UPDATE OF words ON document_search
    FOR EACH ROW EXECUTE FUNCTION quire_search_words();

ALTER TABLE documents DROP COLUMN words, DROP COLUMN folded;

CREATE FUNCTION quire_queue_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_queue (seq)
        VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END);
    RETURN NULL;
END $$;

CREATE TRIGGER documents_search_insert AFTER INSERT OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION quire_queue_search();
-- Only a change to what is indexed queues the document: a save that kept its
-- title and text (moved, renamed in its folder, shared) costs the indexer nothing.
CREATE TRIGGER documents_search_update AFTER UPDATE OF title, body, cjk ON documents
    FOR EACH ROW
    WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body
          OR OLD.cjk IS DISTINCT FROM NEW.cjk)
    EXECUTE FUNCTION quire_queue_search();
