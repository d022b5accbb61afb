-- A document's rendered page, zstd-compressed. The HTML was stored as it is,
-- ~1.3x the Markdown it came from and the largest thing in a database of
-- rendered documents. Compressed it is ~0.2-0.3x. New pages are written here
-- with `html` left empty. A page written before this step is still read from
-- `html` and compressed the first time it is viewed (`documents::fresh_html`).
ALTER TABLE documents ADD COLUMN html_z BLOB;
