//! API tokens, stored by their SHA-256.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QueryOrder,
};

use super::User;
use crate::db::Conn;
use crate::db::entity::api_tokens::{self, Column};

#[derive(Debug, Clone)]
pub struct TokenRow {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// A live token's user (enabled), with the token's id and last use.
#[derive(Debug, Clone)]
pub struct Holder {
    pub user: User,
    pub token_id: i64,
    pub last_used_at: Option<i64>,
}

pub async fn insert(
    conn: &impl Conn,
    user_id: i64,
    name: &str,
    token_hash: &[u8],
    now: i64,
) -> Result<(), crate::db::Error> {
    api_tokens::ActiveModel {
        user_id: Set(user_id),
        name: Set(name.to_owned()),
        token_hash: Set(token_hash.to_vec()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(conn.sea())
    .await?;
    Ok(())
}

/// The user's live tokens, newest first.
pub async fn list(ex: &impl Conn, user_id: i64) -> Result<Vec<TokenRow>, crate::db::Error> {
    let rows = api_tokens::Entity::find()
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null())
        .order_by_desc(Column::Id)
        .all(ex.sea())
        .await?;
    Ok(rows
        .into_iter()
        .map(|t| TokenRow {
            id: t.id,
            name: t.name,
            created_at: t.created_at,
            last_used_at: t.last_used_at,
        })
        .collect())
}

/// False when the user has no such live token.
pub async fn revoke(
    conn: &impl Conn,
    user_id: i64,
    id: i64,
    now: i64,
) -> Result<bool, crate::db::Error> {
    let done = api_tokens::Entity::update_many()
        .col_expr(Column::RevokedAt, Expr::value(now))
        .filter(Column::Id.eq(id))
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null())
        .exec(conn.sea())
        .await?;
    Ok(done.rows_affected == 1)
}

/// Who holds the live token with this hash, if their account is enabled.
pub async fn holder(ex: &impl Conn, token_hash: &[u8]) -> Result<Option<Holder>, crate::db::Error> {
    let row: Option<(i64, String, bool, i64, Option<i64>)> = crate::db::query_as(
        "SELECT u.id, u.username, u.is_admin, t.id, t.last_used_at FROM api_tokens t
         JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(ex)
    .await?;
    Ok(
        row.map(|(id, username, is_admin, token_id, last_used_at)| Holder {
            user: User {
                id,
                username,
                is_admin,
                unread: 0,
            },
            token_id,
            last_used_at,
        }),
    )
}

/// False when the token is no longer live (revoked, or gone with its account).
pub async fn mark_used(conn: &impl Conn, id: i64, now: i64) -> Result<bool, crate::db::Error> {
    let done = api_tokens::Entity::update_many()
        .col_expr(Column::LastUsedAt, Expr::value(now))
        .filter(Column::Id.eq(id))
        .filter(Column::RevokedAt.is_null())
        .exec(conn.sea())
        .await?;
    Ok(done.rows_affected == 1)
}
