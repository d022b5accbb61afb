//! Links between documents. The renderer writes `[[Title]]` as an anchor that
//! starts with `LINK_OPEN` and the link's target; the page's targets go into
//! `documents.links` with the page, and triggers (migrations 0014, 0018) keep
//! `document_links` from it, one row per target, and `document_link_ends`:
//! each document that has had that title (or folder and title) while the link
//! existed, whoever may read it. A rename keeps the row, so the link follows
//! the document; a document given the title later is added.
//!
//! Where a link leads is decided when a page is read, for its reader alone
//! (`outgoing`, `incoming`): the first of those documents they may read, the
//! linking document's owner's first, then the oldest. A title is a secret too,
//! so nothing a reader sees depends on a document they may not read.

use super::access;
use crate::db::Conn;

/// How a link between documents starts in a stored page; the target follows,
/// percent-encoded, then `">`.
pub const LINK_OPEN: &str = "<a class=\"wikilink\" href=\"/go?to=";

/// How a target is compared with titles and folders: spaces trimmed and made
/// single, ASCII letters lower-case (what SQLite's `lower` does, and the
/// PostgreSQL triggers do the same).
pub fn key(target: &str) -> String {
    target
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Each link target of a rendered page, as `key`s, once each, in order.
pub fn targets(html: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (at, _) in html.match_indices(LINK_OPEN) {
        let rest = &html[at + LINK_OPEN.len()..];
        let Some(end) = rest.find('"') else { continue };
        // A heading's id may follow after `#` (the title's own `#` is encoded).
        let target = rest[..end].split('#').next().unwrap_or_default();
        let target = percent_encoding::percent_decode_str(target).decode_utf8_lossy();
        let k = key(&target);
        if !k.is_empty() && !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The order in which the documents a link may lead to are tried, `doc` one of
/// them, `from` the linking document and `target` the link's key: a document
/// with that title before one with it as an alias, then the linking document's
/// owner's first, then the oldest. Where two documents share a title, this decides.
fn rank(doc: &str, from: &str, target: &str) -> String {
    format!(
        "CASE WHEN EXISTS (SELECT 1 FROM document_aliases AS da
                           WHERE da.alias = {target} AND da.doc_seq = {doc}.seq) THEN 1 ELSE 0 END,
         CASE WHEN {doc}.owner_id = {from}.owner_id THEN 0 ELSE 1 END, {doc}.seq"
    )
}

/// Each link of document `seq`'s page: its target key, and the id of the
/// document it leads `viewer` to: the first (`rank`) of those it may lead to
/// that they may read and that is not in the trash. No other document counts.
pub async fn outgoing(
    ex: &impl Conn,
    seq: i64,
    viewer: Option<i64>,
) -> Result<Vec<(String, Option<String>)>, crate::db::Error> {
    crate::db::query_as(format!(
        "SELECT l.target,
                (SELECT d.id FROM document_link_ends AS h
                   JOIN documents AS d ON d.seq = h.to_seq
                   JOIN documents AS f ON f.seq = h.from_seq
                  WHERE h.from_seq = l.from_seq AND h.target = l.target
                    AND d.deleted_at IS NULL AND {visible}
                  ORDER BY {rank} LIMIT 1)
         FROM document_links AS l WHERE l.from_seq = $2",
        visible = access::visible("$1"),
        rank = rank("d", "f", "h.target"),
    ))
    .bind(viewer)
    .bind(seq)
    .fetch_all(ex)
    .await
}

/// The documents `viewer` may read that link to document `seq` (by title):
/// those with a link that leads `viewer` there, as `outgoing` shows it (no
/// document they may read and ranked before `seq` takes it): id and title
/// each, at most `limit`.
pub async fn incoming(
    ex: &impl Conn,
    seq: i64,
    viewer: Option<i64>,
    limit: i64,
) -> Result<Vec<(String, String)>, crate::db::Error> {
    // `access::visible` names the document it looks at `d`: the linking
    // document outside, each other document the link may lead to inside.
    // Driven by `seq`'s backlink rows (`h`), not by every document.
    crate::db::query_as(format!(
        "SELECT d.id, d.title FROM documents AS d
         WHERE d.seq <> $2 AND d.deleted_at IS NULL AND {visible}
           AND d.seq IN (
             SELECT h.from_seq FROM document_link_ends AS h
             WHERE h.to_seq = $2
               AND NOT EXISTS (
                 SELECT 1 FROM document_link_ends AS o
                 JOIN documents AS d ON d.seq = o.to_seq
                 JOIN documents AS f ON f.seq = o.from_seq
                 JOIN documents AS me ON me.seq = $2
                 WHERE o.from_seq = h.from_seq AND o.target = h.target AND o.to_seq <> $2
                   AND d.deleted_at IS NULL AND {visible}
                   AND ({before}) < ({me})))
         ORDER BY lower(d.title), d.id LIMIT $3",
        visible = access::visible("$1"),
        before = rank("d", "f", "o.target"),
        me = rank("me", "f", "h.target"),
    ))
    .bind(viewer)
    .bind(seq)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// `expr` with its ASCII capitals made small, on either engine (PostgreSQL's
/// `lower` would change every letter, SQLite's changes ASCII only).
fn ascii_lower(expr: &str, postgres: bool) -> String {
    if postgres {
        format!("translate({expr}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')")
    } else {
        format!("lower({expr})")
    }
}

/// The live document `viewer` may read whose title (or folder and title, or
/// one of its aliases) is `key`: a title first, then a path, then an alias,
/// theirs first, then the oldest. For a link followed from a page that does
/// not say where it leads.
pub async fn find(
    ex: &impl Conn,
    (key, postgres): (&str, bool),
    viewer: Option<i64>,
) -> Result<Option<String>, crate::db::Error> {
    let title = ascii_lower("d.title", postgres);
    let path = ascii_lower("d.folder || '/' || d.title", postgres);
    crate::db::query_scalar(format!(
        "SELECT d.id FROM documents AS d
         WHERE d.deleted_at IS NULL AND {visible}
           AND ({title} = $2 OR (d.folder <> '' AND {path} = $2)
                OR d.seq IN (SELECT doc_seq FROM document_aliases WHERE alias = $2))
         ORDER BY CASE WHEN {title} = $2 THEN 0 WHEN {path} = $2 THEN 1 ELSE 2 END,
                  CASE WHEN d.owner_id = $1 THEN 0 ELSE 1 END, d.seq
         LIMIT 1",
        visible = access::visible("$1")
    ))
    .bind(viewer)
    .bind(key)
    .fetch_optional(ex)
    .await
}

/// Up to `limit` live documents `viewer` may read whose title holds
/// `pattern` (a `LIKE` pattern, a backslash its escape, lower-case): those in
/// `space` first (its id, 0 for the viewer's personal space; NULL for none),
/// then those starting with `start` (another pattern), then by title: title and
/// folder each.
pub async fn titles_like(
    ex: &impl Conn,
    viewer: Option<i64>,
    (pattern, start): (&str, &str),
    space: Option<i64>,
    limit: i64,
) -> Result<Vec<(String, String)>, crate::db::Error> {
    let int = if crate::db::is_postgres(ex) {
        "::bigint"
    } else {
        ""
    };
    crate::db::query_as(format!(
        "SELECT d.title, d.folder FROM documents AS d
         WHERE d.deleted_at IS NULL AND {} AND lower(d.title) LIKE $2 ESCAPE '\\'
         ORDER BY CASE WHEN d.space_id = $5{int}
                         OR ($5{int} = 0 AND d.space_id IS NULL AND d.owner_id = $1{int})
                       THEN 0 ELSE 1 END,
                  CASE WHEN lower(d.title) LIKE $3 ESCAPE '\\' THEN 0 ELSE 1 END,
                  lower(d.title), d.folder
         LIMIT $4",
        access::visible("$1")
    ))
    .bind(viewer)
    .bind(pattern)
    .bind(start)
    .bind(limit)
    .bind(space)
    .fetch_all(ex)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_read_back_from_the_page_once_each() {
        let html = format!(
            "<p>{LINK_OPEN}Tomato%20Plan\">x</a> and {LINK_OPEN}tomato%20%20plan\">y</a> \
             {LINK_OPEN}Projects%2FGr%C3%BCn\">z</a></p>"
        );
        assert_eq!(targets(&html), ["tomato plan", "projects/grün"]);
        assert!(targets("<p><a href=\"/go?to=x\">plain</a></p>").is_empty());
    }
}
