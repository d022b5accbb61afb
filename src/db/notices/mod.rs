//! What reaches people, as stored: who watches what (`watches`), the queue of
//! changes not yet told (`queue`), the notices made from it (`fan_out`), each
//! person's inbox (`inbox`) and the recent changes a reader may see (`recent`).
//! Who may read what is the access statement's (`db::documents::access`);
//! every reader here goes through it.

pub mod fan_out;
pub mod feeds;
pub mod inbox;
pub mod mail;
pub mod presence;
pub mod queue;
pub mod recent;
pub mod watches;

use crate::db::documents::{spaces_of, visible};

/// A `WHERE` condition: notice `n` (its document joined as `d`) is about
/// something the person `viewer` may read now: a live document they may read,
/// or a space they are a member of.
pub(crate) fn readable(viewer: &str) -> String {
    format!(
        "((n.doc_seq IS NOT NULL AND d.deleted_at IS NULL AND {doc})
          OR (n.doc_seq IS NULL AND n.space_id IN {spaces}))",
        doc = visible(viewer),
        spaces = spaces_of(viewer, 1),
    )
}
