-- FTS5 merges an index's segments inside the writes that index documents:
-- a little with each write ('automerge'), and a whole level at once in the
-- insert that brings it to 16 segments. Measured, a four-document indexing
-- batch then held the writer for 120-160 ms, and a save queued behind it
-- waited as long. The search indexer merges instead, in small steps that are
-- transactions of their own (`db::search::queue::merge`), often enough that no
-- level reaches 16, so saves go in between.
INSERT INTO documents_words (documents_words, rank) VALUES ('automerge', 0);
INSERT INTO documents_trigrams (documents_trigrams, rank) VALUES ('automerge', 0);
