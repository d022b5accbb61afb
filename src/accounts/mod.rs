//! Accounts: users, password sign-in with rate limits, database-backed sessions and
//! the audit log. Knows nothing of HTTP.

pub mod manage;
pub mod password;
mod sessions;
pub mod tokens;

pub use sessions::{
    SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, end_session, random_token, session_user,
    session_user_with_document, start_session,
};

use crate::db::Db;
use crate::documents::now_ms;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct User {
    pub id: i64,
    pub username: String,
    #[sqlx(try_from = "crate::db::Flag")]
    pub is_admin: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(String),
    #[error("That username is taken.")]
    Taken,
    #[error("Wrong username or password.")]
    WrongCredentials,
    #[error("Too many failed sign-ins. Wait {minutes} minutes and try again.")]
    RateLimited { minutes: i64 },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error("password hashing failed: {0}")]
    Hash(String),
}

/// 1–64 characters of letters, digits, `.`, `_` and `-`.
pub fn check_username(name: &str) -> Result<String, AccountError> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(name.to_owned())
    } else {
        Err(AccountError::Invalid(
            "A username is 1 to 64 letters, digits, dots, dashes or underscores.".into(),
        ))
    }
}

pub async fn create_user(
    db: &Db,
    username: &str,
    password: &str,
    is_admin: bool,
) -> Result<User, AccountError> {
    let username = check_username(username)?;
    password::check_new(password).map_err(AccountError::Invalid)?;
    let pw = password.to_owned();
    let hash = tokio::task::spawn_blocking(move || password::hash(&pw))
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))?
        .map_err(|e| AccountError::Hash(e.to_string()))?;
    let mut tx = db.begin_write().await?;
    let created = sqlx::query_as(
        "INSERT INTO users (username, password_hash, is_admin, created_at)
         VALUES ($1, $2, $3, $4) RETURNING id, username, is_admin",
    )
    .bind(&username)
    .bind(hash)
    .bind(crate::db::Flag(is_admin))
    .bind(now_ms())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => AccountError::Taken,
        _ => AccountError::Db(e),
    })?;
    audit(&mut tx, None, "user.created", &username).await?;
    tx.commit().await?;
    Ok(created)
}

pub async fn user_count(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(&db.read)
        .await
}

const WINDOW_MS: i64 = 15 * 60 * 1000;
const MAX_PER_ACCOUNT: i64 = 10;
const MAX_PER_ADDRESS: i64 = 50;

/// Checks a username and password. Failures are counted per account and per
/// address; past the limit every attempt is refused without checking the password.
pub async fn authenticate(
    db: &Db,
    username: &str,
    password: &str,
    address: &str,
) -> Result<User, AccountError> {
    let now = now_ms();
    let account_key = format!("user:{}", username.trim().to_lowercase());
    let address_key = format!("addr:{address}");
    let (by_account, by_address): (i64, i64) = sqlx::query_as(
        "SELECT coalesce(sum(CASE WHEN key = $1 THEN 1 ELSE 0 END), 0),
                coalesce(sum(CASE WHEN key = $2 THEN 1 ELSE 0 END), 0)
         FROM login_failures WHERE key IN ($1, $2) AND at > $3",
    )
    .bind(&account_key)
    .bind(&address_key)
    .bind(now - WINDOW_MS)
    .fetch_one(&db.read)
    .await?;
    if by_account >= MAX_PER_ACCOUNT || by_address >= MAX_PER_ADDRESS {
        return Err(AccountError::RateLimited { minutes: 15 });
    }
    let row: Option<(i64, String, crate::db::Flag, String, Option<i64>)> = sqlx::query_as(
        "SELECT id, username, is_admin, password_hash, disabled_at FROM users WHERE lower(username) = lower($1)",
    )
    .bind(username.trim())
    .fetch_optional(&db.read)
    .await?;
    let (stored, pw) = (
        row.as_ref()
            .map_or_else(|| password::dummy_hash().to_owned(), |r| r.3.clone()),
        password.to_owned(),
    );
    let matches = tokio::task::spawn_blocking(move || password::verify(&pw, &stored))
        .await
        .unwrap_or(false);
    let mut tx = db.begin_write().await?;
    let result = match row {
        Some((id, username, is_admin, _, None)) if matches => {
            audit(&mut tx, Some(id), "login.ok", address).await?;
            Ok(User {
                id,
                username,
                is_admin: is_admin.0,
            })
        }
        other => {
            for key in [&account_key, &address_key] {
                sqlx::query("INSERT INTO login_failures (key, at) VALUES ($1, $2)")
                    .bind(key)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("DELETE FROM login_failures WHERE at < $1")
                .bind(now - WINDOW_MS)
                .execute(&mut *tx)
                .await?;
            let detail = format!("{} from {address}", username.trim());
            audit(&mut tx, other.map(|r| r.0), "login.failed", &detail).await?;
            Err(AccountError::WrongCredentials)
        }
    };
    tx.commit().await?;
    result
}

pub async fn audit(
    conn: &mut sqlx::AnyConnection,
    user_id: Option<i64>,
    event: &str,
    detail: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO audit_log (at, user_id, event, detail) VALUES ($1, $2, $3, $4)")
        .bind(now_ms())
        .bind(user_id)
        .bind(event)
        .bind(detail)
        .execute(conn)
        .await?;
    Ok(())
}
