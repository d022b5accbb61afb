//! Imported documents made into rows to store many at once. The costly work
//! (hashing, compressing history, rendering) happens in `prepare`, off the
//! writer and in parallel; the writer then only runs a few multi-row inserts per
//! batch (`db::documents::import_rows`).

use std::collections::HashMap;

use super::revisions::line_changes;
use super::{DocId, RENDER_VERSION, cjk};
use crate::db::documents::PackedHtml;
pub use crate::db::documents::import_rows::{
    DocRows, FileRow, ROWS_PER_INSERT, RevRow, TextRow, existing_ids, insert,
};
use crate::db::documents::revisions::{SNAPSHOT_EVERY, compress, hash};

/// A document as an import found it.
#[derive(Debug, Clone)]
pub struct NewDoc {
    pub id: DocId,
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub owner_id: Option<i64>,
    /// Its space; none: its owner's personal space.
    pub space_id: Option<i64>,
    pub visibility: String,
    /// A tidied folder path (empty: the top level) and tidied tags.
    pub folder: String,
    pub tags: Vec<String>,
    /// Every revision, oldest first, numbered 1..=n, the last one's text being
    /// `body`. Empty: the document starts here, at version 1.
    pub history: Vec<OldRevision>,
    /// Files the document keeps, by the names its text gives them.
    pub files: Vec<FileRow>,
    /// The file it was imported from (`tomatoes.md`), for exports to name it so.
    pub file_name: Option<String>,
}

#[derive(Debug, Clone)]
pub struct OldRevision {
    pub rev: i64,
    pub title: String,
    pub text: String,
    pub author: Option<String>,
    pub created_at: i64,
    /// The folder and tags this revision left the document with.
    pub folder: String,
    pub tags: Vec<String>,
}

/// Checks the history and does the CPU work. With `render` false the HTML is left
/// for the first view (`render_version` 0 marks it as not yet rendered).
pub fn prepare(mut doc: NewDoc, render: bool) -> Result<DocRows, String> {
    let clean = |s: &mut String| *s = super::without_nul(s).into_owned();
    clean(&mut doc.title);
    clean(&mut doc.body);
    for r in &mut doc.history {
        clean(&mut r.title);
        clean(&mut r.text);
        r.author.as_mut().map(clean);
    }
    let history = if doc.history.is_empty() {
        vec![OldRevision {
            rev: 1,
            title: doc.title.clone(),
            text: doc.body.clone(),
            author: None,
            created_at: doc.updated_at,
            folder: doc.folder.clone(),
            tags: doc.tags.clone(),
        }]
    } else {
        doc.history
    };
    if history
        .iter()
        .enumerate()
        .any(|(i, r)| r.rev != i as i64 + 1)
    {
        return Err("its history is incomplete: revisions must be numbered 1, 2, 3, ...".into());
    }
    if history.last().is_some_and(|r| r.text != doc.body) {
        return Err("its history does not end with the document's text".into());
    }
    let mut depths: HashMap<Vec<u8>, i64> = HashMap::new();
    let mut texts = Vec::new();
    let mut revs = Vec::with_capacity(history.len());
    let mut prev: Option<(&str, Vec<u8>)> = None;
    for r in &history {
        let h = hash(&r.text);
        if !depths.contains_key(&h) {
            // The same choice `revisions::record` makes: a delta against the text it
            // replaced, a full snapshot every SNAPSHOT_EVERY steps.
            let base = prev
                .as_ref()
                .and_then(|(text, ph)| Some((*text, ph.clone(), depths.get(ph)? + 1)))
                .filter(|(_, _, d)| *d < SNAPSHOT_EVERY);
            let data = compress(&r.text, base.as_ref().map(|b| b.0)).map_err(|e| e.to_string())?;
            let depth = base.as_ref().map_or(0, |b| b.2);
            depths.insert(h.clone(), depth);
            texts.push(TextRow {
                hash: h.clone(),
                base: base.map(|b| b.1),
                depth,
                raw_size: r.text.len() as i64,
                data,
            });
        }
        let (added, removed) = match &prev {
            // Counting lines gives what a diff against nothing would, for less.
            None if !r.text.contains('\r') => (r.text.lines().count() as i64, 0),
            _ => line_changes(prev.as_ref().map_or("", |p| p.0), &r.text),
        };
        revs.push(RevRow {
            rev: r.rev,
            title: r.title.clone(),
            hash: h.clone(),
            size: r.text.len() as i64,
            added,
            removed,
            author: r.author.clone(),
            created_at: r.created_at,
            folder: r.folder.clone(),
            tags: super::place::tags_json(&r.tags),
        });
        prev = Some((&r.text, h));
    }
    let (html, render_version) = if render {
        (
            super::render::RenderedPage::render(&doc.body, Some(doc.id.as_str()))
                .map_err(|e| e.to_string())?
                .packed,
            RENDER_VERSION,
        )
    } else {
        (PackedHtml::default(), 0)
    };
    Ok(DocRows {
        cjk: cjk::index_text(&doc.title, &doc.body),
        version: history.len() as i64,
        texts,
        revs,
        id: doc.id.as_str().to_owned(),
        title: doc.title,
        body: doc.body,
        html,
        render_version,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        owner_id: doc.owner_id,
        space_id: doc.space_id,
        folder: doc.folder,
        tags: super::place::tags_json(&doc.tags),
        visibility: doc.visibility,
        files: doc.files,
        file_name: doc.file_name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_lines_matches_a_diff_against_nothing() {
        for text in ["", "a", "a\n", "a\nb", "a\n\n", "\n\n\nx"] {
            assert_eq!(
                (text.lines().count() as i64, 0),
                line_changes("", text),
                "{text:?}"
            );
        }
    }
}
