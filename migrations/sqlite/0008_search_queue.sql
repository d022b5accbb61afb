-- The search indexes leave the writer's critical path. A save no longer tokenises
-- its old and new text inside its transaction (the trigram index alone took
-- ~2.5 ms for 8 KB): it only queues the document's `seq`, in the same
-- transaction, so the queue is as durable as the save. A background indexer
-- (`db::search::queue`) applies the queue in batches, each document once however
-- often it was saved meanwhile.
--
-- The indexes become contentless (`contentless_delete`): an entry is removed by
-- its rowid alone, without the text it was made from, which the indexer no
-- longer has once the row has changed. Search ranks by bm25 and reads the text
-- from `documents`, so it never needed the index's copy.

DROP TRIGGER IF EXISTS documents_search_insert;
DROP TRIGGER IF EXISTS documents_search_delete;
DROP TRIGGER IF EXISTS documents_search_update;
DROP TABLE IF EXISTS documents_words;
DROP TABLE IF EXISTS documents_trigrams;

CREATE VIRTUAL TABLE documents_words USING fts5 (
    title, body, cjk,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE documents_trigrams USING fts5 (
    title, body,
    content = '', contentless_delete = 1,
    tokenize = 'trigram remove_diacritics 1'
);

-- Documents whose index entries are out of date (new, changed or gone).
CREATE TABLE search_queue (
    seq INTEGER PRIMARY KEY
) STRICT;

-- Every document is indexed again, in the background, after this step: the
-- upgrade itself stays as quick as any start.
INSERT INTO search_queue (seq) SELECT seq FROM documents;

CREATE TRIGGER documents_search_insert AFTER INSERT ON documents BEGIN
    INSERT OR IGNORE INTO search_queue (seq) VALUES (NEW.seq);
END;

CREATE TRIGGER documents_search_delete AFTER DELETE ON documents BEGIN
    INSERT OR IGNORE INTO search_queue (seq) VALUES (OLD.seq);
END;

CREATE TRIGGER documents_search_update AFTER UPDATE OF title, body, cjk ON documents BEGIN
    INSERT OR IGNORE INTO search_queue (seq) VALUES (NEW.seq);
END;
