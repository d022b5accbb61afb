//! Every table of quire's schema as a SeaORM entity: the one description of the
//! columns both engines share (the search indexes, kept each engine's own way,
//! aside),
//! held against the real schema by the tests. What copies whole tables
//! (`quire migrate-to`) reads its columns from here.

use sea_orm::sea_query::ColumnType;
use sea_orm::{ColumnTrait, EntityTrait, IdenStatic, Iterable};

pub mod api_tokens;
pub mod attachment_pages;
pub mod attachment_texts;
pub mod attachments;
pub mod audit_log;
pub mod change_queue;
pub mod comments;
pub mod document_aliases;
pub mod document_files;
pub mod document_group_shares;
pub mod document_link_ends;
pub mod document_links;
pub mod document_shares;
pub mod document_tags;
pub mod document_watches;
pub mod documents;
pub mod drafts;
pub mod editing_now;
pub mod group_members;
pub mod identities;
pub mod invitations;
pub mod login_failures;
pub mod mail_outbox;
pub mod new_drafts;
pub mod notices;
pub mod place_templates;
pub mod place_watches;
pub mod quire_settings;
pub mod revision_texts;
pub mod revisions;
pub mod sessions;
pub mod space_members;
pub mod spaces;
pub mod suggestions;
pub mod templates;
pub mod user_groups;
pub mod users;
pub mod webhook_deliveries;
pub mod webhooks;

/// A column's kind of value, as a copy reads and writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Text,
    Blob,
}

/// A table's name and columns, in the entity's order.
#[derive(Clone, Debug)]
pub struct Shape {
    pub name: &'static str,
    pub columns: Vec<(&'static str, Kind)>,
}

fn kind(t: &ColumnType) -> Option<Kind> {
    match t {
        ColumnType::BigInteger | ColumnType::Integer | ColumnType::SmallInteger => Some(Kind::Int),
        ColumnType::String(_) | ColumnType::Text | ColumnType::Char(_) => Some(Kind::Text),
        ColumnType::Binary(_) | ColumnType::VarBinary(_) | ColumnType::Blob => Some(Kind::Blob),
        _ => None,
    }
}

fn shape<E: EntityTrait>(entity: E) -> Result<Shape, String> {
    let name = entity.table_name();
    let columns = E::Column::iter()
        .map(|c| {
            kind(c.def().get_column_type())
                .map(|k| (c.as_str(), k))
                .ok_or_else(|| format!("{name}.{} has a type quire does not copy", c.as_str()))
        })
        .collect::<Result<_, _>>()?;
    Ok(Shape { name, columns })
}

/// Every table, in no particular order.
pub fn tables() -> Result<Vec<Shape>, String> {
    Ok(vec![
        shape(users::Entity)?,
        shape(spaces::Entity)?,
        shape(user_groups::Entity)?,
        shape(group_members::Entity)?,
        shape(identities::Entity)?,
        shape(space_members::Entity)?,
        shape(documents::Entity)?,
        shape(document_group_shares::Entity)?,
        shape(invitations::Entity)?,
        shape(revision_texts::Entity)?,
        shape(revisions::Entity)?,
        shape(document_shares::Entity)?,
        shape(document_tags::Entity)?,
        shape(document_links::Entity)?,
        shape(document_link_ends::Entity)?,
        shape(document_aliases::Entity)?,
        shape(attachments::Entity)?,
        shape(document_files::Entity)?,
        shape(sessions::Entity)?,
        shape(api_tokens::Entity)?,
        shape(drafts::Entity)?,
        shape(new_drafts::Entity)?,
        shape(audit_log::Entity)?,
        shape(login_failures::Entity)?,
        shape(quire_settings::Entity)?,
        shape(document_watches::Entity)?,
        shape(place_watches::Entity)?,
        shape(change_queue::Entity)?,
        shape(notices::Entity)?,
        shape(editing_now::Entity)?,
        shape(mail_outbox::Entity)?,
        shape(comments::Entity)?,
        shape(webhooks::Entity)?,
        shape(webhook_deliveries::Entity)?,
        shape(suggestions::Entity)?,
        shape(templates::Entity)?,
        shape(place_templates::Entity)?,
        shape(attachment_texts::Entity)?,
        shape(attachment_pages::Entity)?,
    ])
}
