-- The words the search index holds, for other forms of a word (`tomato` for
-- `tomatoes`) and for "did you mean" after a typo: FTS5 keeps its vocabulary
-- in the index already, so SQLite only needs a view of it (`fts5vocab`, read
-- by ranges of words). A word here may be only in documents someone else can
-- read: every word offered is checked by a search under the reader's rights.
CREATE VIRTUAL TABLE documents_words_vocab USING fts5vocab (documents_words, 'row');
