//! Who a document is shared with, its visibility and its public link.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::db::Conn;
use crate::db::entity::document_shares::{self, Column};
use crate::db::entity::documents;

#[derive(Debug, Clone)]
pub struct Share {
    pub user_id: i64,
    pub username: String,
    pub can_edit: bool,
}
crate::db::from_row!(Share {
    user_id,
    username,
    can_edit
});

/// The people a document is shared with by name, by name.
pub async fn list(ex: &impl Conn, doc_seq: i64) -> Result<Vec<Share>, crate::db::Error> {
    crate::db::query_as(
        "SELECT s.user_id, u.username, s.can_edit FROM document_shares s
         JOIN users u ON u.id = s.user_id WHERE s.doc_seq = $1 ORDER BY u.username",
    )
    .bind(doc_seq)
    .fetch_all(ex)
    .await
}

pub async fn set_visibility(
    conn: &impl Conn,
    doc_seq: i64,
    visibility: &str,
) -> Result<(), crate::db::Error> {
    documents::Entity::update_many()
        .col_expr(documents::Column::Visibility, Expr::value(visibility))
        .filter(documents::Column::Seq.eq(doc_seq))
        .exec(conn.sea())
        .await?;
    Ok(())
}

/// Shares with a user, or changes what they may do.
pub async fn put(
    conn: &impl Conn,
    doc_seq: i64,
    user_id: i64,
    can_edit: bool,
) -> Result<(), crate::db::Error> {
    let row = document_shares::ActiveModel {
        doc_seq: Set(doc_seq),
        user_id: Set(user_id),
        can_edit: Set(i64::from(can_edit)),
    };
    document_shares::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([Column::DocSeq, Column::UserId])
                .update_column(Column::CanEdit)
                .to_owned(),
        )
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

pub async fn remove(conn: &impl Conn, doc_seq: i64, user_id: i64) -> Result<(), crate::db::Error> {
    document_shares::Entity::delete_many()
        .filter(Column::DocSeq.eq(doc_seq))
        .filter(Column::UserId.eq(user_id))
        .exec(conn.sea())
        .await?;
    Ok(())
}

/// Sets (`Some`) or revokes (`None`) the public link's token.
pub async fn set_public_token(
    conn: &impl Conn,
    doc_seq: i64,
    token: Option<&str>,
) -> Result<(), crate::db::Error> {
    documents::Entity::update_many()
        .col_expr(documents::Column::PublicToken, Expr::value(token))
        .filter(documents::Column::Seq.eq(doc_seq))
        .exec(conn.sea())
        .await?;
    Ok(())
}
