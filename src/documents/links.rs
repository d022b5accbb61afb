//! Links between documents in the text: `[[Title]]`, `[[Title|label]]` and
//! `[[Folder/Title]]`, each with `#Heading` for a heading of that document
//! (`[[#Heading]]` alone: one of this page's). The renderer leaves each as a mark that comes back
//! after sanitising as an anchor to `/go?to=TARGET` (`LINK_OPEN`); the stored
//! page's targets are resolved by the database (`db::documents::links`), and a
//! page view points each link at its document, or marks it missing, for the
//! reader (`resolve`).

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use super::{Actor, DocError, Document, InSpace, access};
use crate::db::documents::links::{self as stored, LINK_OPEN, key};
use crate::db::{Backend, Db};
use crate::query_param::encoded;

/// Documents listed under "Linked from" at most.
const LINKED_FROM: i64 = 100;

/// Longer targets are left as text: no title is longer than 200 characters,
/// nor a folder than 200.
const MAX_TARGET: usize = 401;

enum Open {
    Wiki,
    Kept,
    Dropped,
}

/// Where a link between documents leads: the document (its title, or folder
/// and title, as written), and the id of a heading there.
pub(super) struct Target {
    page: String,
    heading: Option<String>,
}

/// Replaces each link between documents in `events` by marks around its
/// label; returns the targets, in order (the marks' numbers). A link to a
/// heading of this page (`[[#Heading]]`) is an ordinary link to its anchor.
pub(super) fn set_aside<'a>(events: Vec<Event<'a>>, mark: &str) -> (Vec<Event<'a>>, Vec<Target>) {
    let mut out = Vec::with_capacity(events.len());
    let mut targets = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    // An image's text becomes its `alt` attribute: no anchor can go there.
    let mut in_image = 0usize;
    for event in events {
        match event {
            Event::Start(tag @ Tag::Image { .. }) => {
                in_image += 1;
                out.push(Event::Start(tag));
            }
            Event::End(TagEnd::Image) => {
                in_image = in_image.saturating_sub(1);
                out.push(Event::End(TagEnd::Image));
            }
            Event::Start(Tag::Link {
                link_type: LinkType::WikiLink { .. },
                dest_url,
                ..
            }) => {
                let target = dest_url.split_whitespace().collect::<Vec<_>>().join(" ");
                let (page, heading) = match target.split_once('#') {
                    Some((page, heading)) => (page.trim(), Some(heading.trim())),
                    None => (target.as_str(), None),
                };
                let heading = heading
                    .filter(|h| !h.is_empty())
                    .map(|h| format!("{}{}", super::headings::ID_PREFIX, super::headings::slug(h)));
                if in_image > 0 || target.chars().count() > MAX_TARGET {
                    open.push(Open::Dropped);
                } else if page.is_empty() {
                    match heading {
                        Some(anchor) => {
                            out.push(Event::Start(Tag::Link {
                                link_type: LinkType::Inline,
                                dest_url: CowStr::from(format!("#{anchor}")),
                                title: CowStr::from(""),
                                id: CowStr::from(""),
                            }));
                            open.push(Open::Kept);
                        }
                        None => open.push(Open::Dropped),
                    }
                } else {
                    out.push(Event::Text(CowStr::from(format!(
                        "{mark}w{}\u{E000}",
                        targets.len()
                    ))));
                    targets.push(Target {
                        page: page.to_owned(),
                        heading,
                    });
                    open.push(Open::Wiki);
                }
            }
            Event::Start(tag @ Tag::Link { .. }) => {
                open.push(Open::Kept);
                out.push(Event::Start(tag));
            }
            Event::End(TagEnd::Link) => match open.pop() {
                Some(Open::Wiki) => {
                    out.push(Event::Text(CowStr::from(format!("{mark}we\u{E000}"))))
                }
                Some(Open::Dropped) => {}
                _ => out.push(Event::End(TagEnd::Link)),
            },
            other => out.push(other),
        }
    }
    (out, targets)
}

/// The sanitised page with each link's marks made an anchor again; a
/// heading's id follows the target after `#` (an id is letters, digits and
/// `-`: `headings::slug`).
pub(super) fn put_back(mut html: String, mark: &str, targets: &[Target]) -> String {
    for (i, target) in targets.iter().enumerate() {
        let heading = target
            .heading
            .as_deref()
            .map_or(String::new(), |h| format!("#{h}"));
        let anchor = format!("{LINK_OPEN}{}{heading}\">", encoded(&target.page));
        html = html.replacen(&format!("{mark}w{i}\u{E000}"), &anchor, 1);
    }
    html.replace(&format!("{mark}we\u{E000}"), "</a>")
}

/// `html` with each link between documents pointing at the document it leads
/// to for this reader (`found`: key, and the document's id when the reader
/// may read it), or marked missing with an offer to create it. With no
/// reader (`None`: a public page), each link is its label alone.
pub fn resolve(html: &str, found: Option<&[(String, Option<String>)]>) -> String {
    if !html.contains(LINK_OPEN) {
        return html.to_owned();
    }
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = html;
    while let Some(at) = rest.find(LINK_OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + LINK_OPEN.len()..];
        let Some(end) = after.find("\">") else {
            out.push_str(&rest[at..]);
            return out;
        };
        let (encoded_target, heading) = match after[..end].split_once('#') {
            Some((target, heading)) => (target, format!("#{heading}")),
            None => (&after[..end], String::new()),
        };
        rest = &after[end + 2..];
        let Some(found) = found else {
            // Links do not nest: the next `</a>` closes this one.
            let close = rest.find("</a>").unwrap_or(rest.len());
            out.push_str(&format!(
                "<span class=\"wikilink\">{}</span>",
                &rest[..close]
            ));
            rest = rest.get(close + 4..).unwrap_or("");
            continue;
        };
        let target = percent_encoding::percent_decode_str(encoded_target).decode_utf8_lossy();
        let k = key(&target);
        match found.iter().find(|(t, _)| *t == k).and_then(|(_, id)| id.as_deref()) {
            Some(id) => out.push_str(&format!(
                "<a class=\"wikilink\" href=\"/d/{id}{heading}\">"
            )),
            None => out.push_str(&format!(
                "<a class=\"wikilink missing\" href=\"{}\" title=\"No such document yet: create it\">",
                create_href(&target)
            )),
        }
    }
    out.push_str(rest);
    out
}

/// Where a missing link offers to create its document: the title, and the
/// folder where the target names one (`Projects/Garden/Tomatoes`).
fn create_href(target: &str) -> String {
    match target.rsplit_once('/') {
        Some((folder, title)) if !folder.trim().is_empty() && !title.trim().is_empty() => {
            format!(
                "/new?title={}&amp;folder={}",
                encoded(title.trim()),
                encoded(folder.trim())
            )
        }
        _ => format!("/new?title={}", encoded(target)),
    }
}

/// What `actor` sees of `doc`'s links: its page with each link pointed at
/// the document it leads to when they may read that one (`resolve`), and the
/// documents they may read that link to it (id, title each). A page with no
/// links either way (as read with it: `Document::linked`) asks nothing, and a
/// page without links of its own comes back as `None`: it is shown as stored.
pub async fn for_reader(
    db: &Db,
    doc: &Document,
    actor: Actor<'_>,
) -> Result<(Option<String>, Vec<(String, String)>), DocError> {
    let viewer = Some(actor.user_id);
    let has_links = doc.html.contains(LINK_OPEN);
    let outgoing = async {
        if has_links {
            stored::outgoing(&db.read, doc.seq, viewer).await
        } else {
            Ok(Vec::new())
        }
    };
    let incoming = async {
        if doc.linked {
            stored::incoming(&db.read, doc.seq, viewer, LINKED_FROM).await
        } else {
            Ok(Vec::new())
        }
    };
    let (found, incoming) = futures_util::future::try_join(outgoing, incoming).await?;
    Ok((
        has_links.then(|| resolve(&doc.html, Some(&found))),
        incoming,
    ))
}

/// The document a link to `target` leads `actor` to, for a page that does not
/// say (a revision, a preview, the API's HTML): theirs and titles first.
pub async fn follow(db: &Db, target: &str, actor: Actor<'_>) -> Result<Option<String>, DocError> {
    let k = key(target);
    if k.is_empty() {
        return Ok(None);
    }
    let postgres = db.backend == Backend::Postgres;
    Ok(stored::find(&db.read, (&k, postgres), access::viewer(actor.into())).await?)
}

/// Titles offered while a link is typed (`[[gar`): at most this many.
const SUGGESTED: i64 = 8;

/// The documents `actor` may read whose title holds `typed` (case aside),
/// those in `space` (the linking document's) first, then those starting with
/// it: title, folder, and what the link names (the folder too where two
/// offered share the title), to complete a link.
pub async fn suggest(
    db: &Db,
    typed: &str,
    actor: Actor<'_>,
    space: Option<InSpace>,
) -> Result<Vec<(String, String, String)>, DocError> {
    let typed: String = typed
        .trim()
        .chars()
        .take(100)
        .collect::<String>()
        .to_lowercase();
    let mut escaped = String::with_capacity(typed.len());
    for c in typed.chars() {
        if matches!(c, '\\' | '%' | '_') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    let (pattern, start) = (format!("%{escaped}%"), format!("{escaped}%"));
    let viewer = access::viewer(actor.into());
    let space = space.map(InSpace::bound);
    let found = stored::titles_like(&db.read, viewer, (&pattern, &start), space, SUGGESTED).await?;
    let shared = |title: &str| found.iter().filter(|(t, _)| key(t) == key(title)).count() > 1;
    Ok(found
        .iter()
        .map(|(title, folder)| {
            let target = match shared(title) && !folder.is_empty() {
                true => format!("{folder}/{title}"),
                false => title.clone(),
            };
            (title.clone(), folder.clone(), target)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::render_markdown;
    use super::*;

    #[test]
    fn links_between_documents_become_anchors_with_their_labels() {
        let html = render_markdown(
            "See [[Tomato Plan]], [[Projects/Garden/Seeds|the seeds]] and \
             [[<script>|x]]; `[[code]]` stays.\n\n# About [[Tomato Plan]]",
        );
        assert!(
            html.contains(&format!("{LINK_OPEN}Tomato%20Plan\">Tomato Plan</a>")),
            "{html}"
        );
        assert!(html.contains(&format!(
            "{LINK_OPEN}Projects%2FGarden%2FSeeds\">the seeds</a>"
        )));
        assert!(html.contains(&format!("{LINK_OPEN}%3Cscript%3E\">x</a>")));
        assert!(html.contains("<code>[[code]]</code>"));
        // Never inside an image's `alt`, where an anchor would break out of it.
        for text in [
            "![see [[Tomato Plan]]](x.png)",
            "![a *[[Tomato Plan]]*](x.png)",
            "![x][r]\n\n[r]: x.png \"[[Tomato Plan]]\"",
        ] {
            let image = render_markdown(text);
            assert!(
                !image.contains("alt=\"<") && !image.contains("=\"<a"),
                "{image}"
            );
        }
        assert!(!html.contains("\u{E000}"));
        assert_eq!(
            crate::db::documents::links::targets(&html),
            ["tomato plan", "projects/garden/seeds", "<script>"]
        );
    }

    #[test]
    fn a_page_view_points_links_at_readable_documents_and_marks_the_rest_missing() {
        let html = render_markdown("[[Tomato Plan]] and [[Secret|hidden]]");
        let found = [
            (
                "tomato plan".into(),
                Some("01ARZ3NDEKTSV4RRFFQ69G5FAV".into()),
            ),
            ("secret".into(), None),
        ];
        let shown = resolve(&html, Some(&found));
        assert!(
            shown.contains(
                "<a class=\"wikilink\" href=\"/d/01ARZ3NDEKTSV4RRFFQ69G5FAV\">Tomato Plan</a>"
            ),
            "{shown}"
        );
        assert!(shown.contains("<a class=\"wikilink missing\" href=\"/new?title=Secret\""));
        assert!(!shown.contains("/go?to="));
        let public = resolve(&html, None);
        assert!(public.contains("<span class=\"wikilink\">Tomato Plan</span> and <span class=\"wikilink\">hidden</span>"), "{public}");
        assert!(!public.contains("<a"));
        let deep = render_markdown("[[Projects/Garden/Tomatoes]]");
        assert!(
            resolve(&deep, Some(&[]))
                .contains("href=\"/new?title=Tomatoes&amp;folder=Projects%2FGarden\"")
        );
    }
}
