-- The name of the file a document was imported from (`tomatoes.md`), so an
-- export gives it the same name in its folder; NULL for a document written in
-- quire (exported as `<title>-<id>.md`).
ALTER TABLE documents ADD COLUMN file_name TEXT;
