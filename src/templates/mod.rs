//! Templates: any document a person may edit can be marked a template; the New
//! page offers every template the person may read, and fills its fields
//! (`fill`). A space's managers can make a template in the space the one new
//! documents in the space, or in one of its folders (and the folders under
//! it), start from.

pub mod fill;

use crate::clock::now_ms;
use crate::db::Db;
use crate::db::templates as stored;
use crate::documents::access::{Actor, authorize_live};
use crate::documents::{Access, DocError, DocId, Document};
use crate::teams::Manager;

pub use stored::TemplateRow;

/// The most templates the New page offers.
const MOST_OFFERED: i64 = 200;

/// Which template a new document starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// The one its place names, if any.
    Default,
    /// None: a blank document.
    Blank,
    /// This one.
    Named(DocId),
}

impl Ask {
    /// From the New page's `template` parameter: an id, `none`, or nothing.
    pub fn parse(param: Option<&str>) -> Result<Self, DocError> {
        match param.map(str::trim) {
            None | Some("") => Ok(Self::Default),
            Some("none") => Ok(Self::Blank),
            Some(id) => DocId::parse(id).map(Self::Named).ok_or(DocError::NotFound),
        }
    }
}

/// What a new document starts with.
#[derive(Debug, Clone)]
pub struct Start {
    pub id: String,
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
}

/// A document's template settings as the person sees them.
pub struct Status {
    pub doc: Document,
    pub is_template: bool,
    /// The person may mark it a template or not (they may edit it).
    pub may_mark: bool,
    /// Where new documents may start from it: the space's name, and its
    /// folder and each folder above it ('' the space) with whether new
    /// documents there start from it now. Only for the space's managers.
    pub places: Option<(String, Vec<(String, bool)>)>,
}

fn person(m: Manager<'_>) -> Actor<'_> {
    Actor {
        user_id: m.user_id,
        name: m.name,
    }
}

/// `folder` and every folder above it, the space itself ('') first.
fn folders_above(folder: &str) -> Vec<String> {
    let crumbs = crate::documents::place::breadcrumbs(folder);
    std::iter::once(String::new())
        .chain(crumbs.into_iter().map(|(_, path)| path))
        .collect()
}

/// The space of `doc` and its name, if `m` manages it.
async fn managed_space(db: &Db, m: Manager<'_>, doc: &Document) -> Option<(i64, String)> {
    let id = doc.space_id?;
    let space = crate::teams::spaces::find(db, m, id).await.ok()?;
    crate::teams::spaces::may_manage(m, &space).then_some((id, space.name))
}

/// The template settings of document `id`, which `m` may read.
pub async fn status(db: &Db, id: &DocId, m: Manager<'_>) -> Result<Status, DocError> {
    let doc = authorize_live(&db.read, id, person(m), Access::Read).await?;
    let is_template = stored::is_template(&db.read, doc.seq).await?;
    let places = match managed_space(db, m, &doc).await {
        Some((space_id, name)) if is_template => {
            let set = stored::defaults_of(&db.read, space_id, doc.seq).await?;
            let places = folders_above(&doc.folder)
                .into_iter()
                .map(|f| {
                    let on = set.contains(&f);
                    (f, on)
                })
                .collect();
            Some((name, places))
        }
        _ => None,
    };
    Ok(Status {
        may_mark: doc.access.may_edit(),
        is_template,
        places,
        doc,
    })
}

/// Marks document `id` a template, or not; needs the right to edit it.
pub async fn mark(db: &Db, id: &DocId, actor: Actor<'_>, on: bool) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    let doc = authorize_live(&*tx, id, actor, Access::Edit).await?;
    stored::mark(&*tx, doc.seq, actor.user_id, on, now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Makes template `id` the one new documents in `folder` of its space ('' the
/// whole space) start from, or stops that. `folder` must be the template's own
/// folder or one above it; only the space's managers (and admins) may.
pub async fn set_default(
    db: &Db,
    id: &DocId,
    m: Manager<'_>,
    folder: &str,
    on: bool,
) -> Result<(), DocError> {
    let doc = authorize_live(&db.read, id, person(m), Access::Read).await?;
    let Some((space_id, _)) = managed_space(db, m, &doc).await else {
        return Err(DocError::Forbidden);
    };
    if !folders_above(&doc.folder).iter().any(|f| f == folder) {
        return Err(DocError::Invalid(
            "A template can start new documents in its own folder or a folder above it.".into(),
        ));
    }
    let tx = db.begin_write().await?;
    if !stored::is_template(&*tx, doc.seq).await? {
        return Err(DocError::Invalid(
            "Mark the document a template first.".into(),
        ));
    }
    stored::set_default(&*tx, (space_id, folder), doc.seq, (m.user_id, on), now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// The templates `actor` may read, by title.
pub async fn offered(db: &Db, actor: Actor<'_>) -> Result<Vec<TemplateRow>, DocError> {
    Ok(stored::offered(&db.read, actor.user_id, MOST_OFFERED).await?)
}

/// What a new document in `space` (none: the person's own) and `folder`
/// starts with: the template asked for, which must be one the person may
/// read; or, asked for nothing, the one its place names, if the person may
/// read it.
pub async fn start(
    db: &Db,
    actor: Actor<'_>,
    ask: &Ask,
    (space, folder): (Option<i64>, &str),
) -> Result<Option<Start>, DocError> {
    let doc = match ask {
        Ask::Blank => return Ok(None),
        Ask::Named(id) => {
            let doc = authorize_live(&db.read, id, actor, Access::Read).await?;
            if !stored::is_template(&db.read, doc.seq).await? {
                return Err(DocError::Invalid(format!(
                    "“{}” is not a template.",
                    doc.title
                )));
            }
            doc
        }
        Ask::Default => {
            let Some(space) = space else {
                return Ok(None);
            };
            let named = stored::default_for(&db.read, space, &folders_above(folder)).await?;
            let Some(id) = named.and_then(|id| DocId::parse(&id)) else {
                return Ok(None);
            };
            match authorize_live(&db.read, &id, actor, Access::Read).await {
                Ok(doc) => doc,
                Err(DocError::NotFound | DocError::Forbidden) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
    };
    Ok(Some(Start {
        id: doc.id,
        title: doc.title,
        body: doc.body,
        tags: doc.tags,
    }))
}

#[cfg(test)]
mod tests {
    use super::folders_above;

    #[test]
    fn folders_above_start_with_the_space() {
        assert_eq!(folders_above(""), vec![""]);
        assert_eq!(folders_above("A/B c"), vec!["", "A", "A/B c"]);
    }
}
