//! Failed sign-ins, counted per key (an account's or an address's).

/// Failures since `since`: the account's count and its latest time, and the
/// address's count.
pub async fn counts(
    ex: &impl crate::db::Conn,
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

pub async fn insert(
    conn: &impl crate::db::Conn,
    key: &str,
    at: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("INSERT INTO login_failures (key, at) VALUES ($1, $2)")
        .bind(key)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Forgets the account's failures and the address's one at `at`.
pub async fn forgive(
    conn: &impl crate::db::Conn,
    account_key: &str,
    address_key: &str,
    at: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM login_failures WHERE key = $1 OR (key = $2 AND at = $3)")
        .bind(account_key)
        .bind(address_key)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Forgets failures older than `before`.
pub async fn expire(conn: &impl crate::db::Conn, before: i64) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM login_failures WHERE at < $1")
        .bind(before)
        .execute(conn)
        .await?;
    Ok(())
}
