-- The trigram index keeps which documents hold each three-character sequence,
-- not where (`detail = none`). With positions it was the largest thing in the
-- database: 2.7x the text of the kernel's Documentation tree and ~2x generated
-- text, against 0.34x and ~0.16x without them, and slower to build.
--
-- Without positions FTS5 cannot match a phrase, so a search for a part of a word
-- asks for the documents holding all of its trigrams and then checks each
-- candidate's text for the exact sequence (`documents::search`). bm25 had nothing
-- to rank by there either; hits inside words are shown title hits first, then
-- newest first.
DROP TABLE IF EXISTS documents_trigrams;

CREATE VIRTUAL TABLE documents_trigrams USING fts5 (
    title, body,
    content = '', contentless_delete = 1, detail = none,
    tokenize = 'trigram remove_diacritics 1'
);

-- Indexed again in the background, as after 0008: the upgrade stays quick.
INSERT OR IGNORE INTO search_queue (seq) SELECT seq FROM documents;
