//! What a document's stored texts say to a save, read with the document
//! (`documents::find_text_with_access`), so that the save's revision needs no
//! look-up of its own (`revisions::prepare_text`).

/// Whether the new text is stored, and the latest revision's text.
#[derive(Clone, Debug, Default)]
pub struct StoredTexts {
    /// The hash of the text about to be saved, as the read was given it.
    pub new_hash: Vec<u8>,
    /// That text is stored already.
    pub new_stored: bool,
    /// The latest revision's text: its hash and the depth it is stored at.
    pub latest: Option<(Vec<u8>, i64)>,
}

impl StoredTexts {
    /// Whether the new text is stored and the depth of the text hashed
    /// `prev`, where the latest revision's text is that one.
    pub(super) fn about(&self, prev: &[u8]) -> Option<(bool, Option<i64>)> {
        let (latest, depth) = self.latest.as_ref()?;
        (latest == prev).then_some((self.new_stored, Some(*depth)))
    }

    /// Read from a row with `columns`, for the new text hashed `new_hash`.
    pub(super) fn from_row(
        row: &crate::db::Row,
        new_hash: Vec<u8>,
    ) -> Result<Self, crate::db::Error> {
        let latest_hash: Option<Vec<u8>> = row.try_get("latest_hash")?;
        let latest_depth: Option<i64> = row.try_get("latest_depth")?;
        Ok(Self {
            new_hash,
            new_stored: row.try_get::<i64>("new_stored")? != 0,
            latest: latest_hash.zip(latest_depth),
        })
    }
}

/// The columns of `StoredTexts` for the document `doc`, the new text's hash
/// bound as `new_hash`. Each is a look-up by the whole key of an index, so no
/// plan can make it read more than a row: the latest text's depth was a join
/// that PostgreSQL, planning for a new database's empty tables, ran by
/// reading every stored text of the document (310 rows, 0.52 of the read's
/// 0.60 ms after 300 saves), growing with every save.
pub(super) fn columns(doc: &str, new_hash: &str) -> String {
    format!(
        "CAST(CASE WHEN EXISTS (SELECT 1 FROM revision_texts AS t
                                WHERE t.doc_seq = {doc}.seq AND t.hash = {new_hash})
                   THEN 1 ELSE 0 END AS BIGINT) AS new_stored,
         (SELECT r.text_hash FROM revisions AS r WHERE r.doc_seq = {doc}.seq
          ORDER BY r.rev DESC LIMIT 1) AS latest_hash,
         (SELECT t.depth FROM revision_texts AS t
          WHERE t.doc_seq = {doc}.seq AND t.hash = (SELECT r.text_hash FROM revisions AS r
              WHERE r.doc_seq = {doc}.seq ORDER BY r.rev DESC LIMIT 1)) AS latest_depth"
    )
}
