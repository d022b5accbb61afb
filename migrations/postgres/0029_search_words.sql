-- PostgreSQL twin of migrations/sqlite/0029_search_words.sql. A `tsvector`
-- index has no vocabulary to read by ranges of words, so quire keeps one: every
-- word any document's `words` ever held (a word nobody holds any more stays;
-- every word offered is checked by a search under the reader's rights). A
-- save adds only the words its text did not hold before, in word order, so
-- two saves adding the same new words wait for each other, never deadlock.
CREATE TABLE search_words (
    word TEXT COLLATE "C" PRIMARY KEY
);

INSERT INTO search_words (word)
    SELECT DISTINCT w FROM documents, unnest(tsvector_to_array(words)) AS w
    ON CONFLICT DO NOTHING;

CREATE FUNCTION quire_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_words (word)
        SELECT w FROM (
            SELECT unnest(tsvector_to_array(NEW.words)) AS w
            EXCEPT
            SELECT unnest(tsvector_to_array(
                CASE WHEN TG_OP = 'UPDATE' THEN OLD.words END)) AS w
        ) AS added
        ORDER BY w COLLATE "C"
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;

CREATE TRIGGER documents_search_words AFTER INSERT OR UPDATE OF title, body ON documents
    FOR EACH ROW EXECUTE FUNCTION quire_search_words();
