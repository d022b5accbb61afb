//! Failed sign-ins, counted per key (an account's or an address's).

use sea_orm::{ActiveValue::Set, ColumnTrait, Condition, EntityTrait, QueryFilter};

use crate::db::Conn;
use crate::db::entity::login_failures::{self, Column};

/// Failures since `since`: the account's count and its latest time, and the
/// address's count.
pub async fn counts(
    ex: &impl Conn,
    account_key: &str,
    address_key: &str,
    since: i64,
) -> Result<(i64, i64, i64), crate::db::Error> {
    crate::db::query_as(
        "SELECT coalesce(sum(CASE WHEN key = $1 THEN 1 ELSE 0 END), 0),
                coalesce(max(CASE WHEN key = $1 THEN at ELSE 0 END), 0),
                coalesce(sum(CASE WHEN key = $2 THEN 1 ELSE 0 END), 0)
         FROM login_failures WHERE key IN ($1, $2) AND at > $3",
    )
    .bind(account_key)
    .bind(address_key)
    .bind(since)
    .fetch_one(ex)
    .await
}

pub async fn insert(conn: &impl Conn, key: &str, at: i64) -> Result<(), crate::db::Error> {
    let row = login_failures::ActiveModel {
        key: Set(key.to_owned()),
        at: Set(at),
    };
    login_failures::Entity::insert(row)
        .exec_without_returning(conn.sea())
        .await?;
    Ok(())
}

/// Forgets the account's failures and the address's one at `at`.
pub async fn forgive(
    conn: &impl Conn,
    account_key: &str,
    address_key: &str,
    at: i64,
) -> Result<(), crate::db::Error> {
    login_failures::Entity::delete_many()
        .filter(
            Condition::any().add(Column::Key.eq(account_key)).add(
                Condition::all()
                    .add(Column::Key.eq(address_key))
                    .add(Column::At.eq(at)),
            ),
        )
        .exec(conn.sea())
        .await?;
    Ok(())
}

/// Forgets failures older than `before`.
pub async fn expire(conn: &impl Conn, before: i64) -> Result<(), crate::db::Error> {
    login_failures::Entity::delete_many()
        .filter(Column::At.lt(before))
        .exec(conn.sea())
        .await?;
    Ok(())
}
