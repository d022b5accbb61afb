//! Accounts: users, password sign-in with rate limits, database-backed sessions and
//! the audit log. Knows nothing of HTTP.

pub mod audit_log;
pub mod invitations;
pub mod manage;
pub mod oidc;
pub mod password;
pub mod people;
mod sessions;
pub mod single_sign_on;
mod throttle;
pub mod tokens;

pub use audit_log::Creator;
pub use sessions::{
    Live, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, end_session, live_session, live_without_write,
    session_key, session_user, session_user_with_document, start_session, start_session_lasting,
};

use crate::db::Db;
pub use crate::db::audit;
use crate::documents::now_ms;
pub use crate::random::random_token;

use crate::db::accounts as stored;
pub use crate::db::accounts::User;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(String),
    #[error("That username is taken.")]
    Taken,
    #[error("Wrong username or password.")]
    WrongCredentials,
    #[error("Too many failed sign-ins. Wait {} and try again.", wait_text(*seconds))]
    RateLimited { seconds: i64 },
    #[error("Sign-in is busy. Try again in a moment.")]
    Busy,
    #[error("This account is disabled. An administrator can enable it again.")]
    Disabled,
    /// Single sign-on named someone no account is linked to, and may not make one.
    #[error(
        "No quire account is linked to you yet. Ask an administrator, or sign in with \
         your password and link this sign-in on your account page."
    )]
    NotLinked,
    /// The provider's person is already linked to another account.
    #[error("This sign-in is already linked to another quire account.")]
    LinkedElsewhere,
    #[error(transparent)]
    Db(#[from] crate::db::Error),
    #[error("password hashing failed: {0}")]
    Hash(String),
}

impl AccountError {
    /// In words a user can be shown: why the disk refused the write, when
    /// that is what went wrong.
    pub fn unwritable(&self) -> Option<&'static str> {
        match self {
            Self::Db(e) => crate::db::storage_fault(e).map(|fault| fault.what),
            _ => None,
        }
    }
}

fn wait_text(seconds: i64) -> String {
    match seconds {
        ..=1 => "a second".into(),
        2..=90 => format!("{seconds} seconds"),
        _ => format!("{} minutes", (seconds + 59) / 60),
    }
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

/// `create_user_by` as quire itself: `quire user add`, and fixtures.
pub async fn create_user(
    db: &Db,
    username: &str,
    password: &str,
    is_admin: bool,
) -> Result<User, AccountError> {
    create_user_by(db, Creator::CommandLine, username, password, is_admin).await
}

/// Makes an account; the audit log names `by` as who made it.
pub async fn create_user_by(
    db: &Db,
    by: Creator<'_>,
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
    let tx = db.begin_write().await?;
    let created = stored::insert(&*tx, &username, &hash, is_admin, now_ms())
        .await
        .map_err(|e| match &e {
            e if crate::db::is_unique_violation(e) => AccountError::Taken,
            _ => AccountError::Db(e),
        })?;
    audit(
        &tx,
        by.actor(&created),
        "user.created",
        &by.detail(&created),
    )
    .await?;
    tx.commit().await?;
    Ok(created)
}

pub async fn user_count(db: &Db) -> Result<i64, crate::db::Error> {
    stored::count(&db.read).await
}

/// Checks a username and password. Each attempt is counted before the password is
/// checked (see `throttle`): past the free failures an account waits a little
/// longer before each attempt, and an address past its limit is refused.
pub async fn authenticate(
    db: &Db,
    username: &str,
    password: &str,
    address: &str,
) -> Result<User, AccountError> {
    let now = now_ms();
    let account_key = format!("user:{}", username.trim().to_lowercase());
    let address_key = format!("addr:{address}");
    let mut tx = db.begin_write().await?;
    throttle::count_attempt(&mut tx, &account_key, &address_key, now).await?;
    tx.commit().await?;
    let row = stored::credentials(&db.read, username.trim()).await?;
    let hash = row.as_ref().map_or_else(
        || password::dummy_hash().to_owned(),
        |r| r.password_hash.clone(),
    );
    let matches = throttle::verify(password.to_owned(), hash).await?;
    let mut tx = db.begin_write().await?;
    let result = match row {
        Some(found) if matches && found.disabled_at.is_none() => {
            throttle::forgive(&mut tx, &account_key, &address_key, now).await?;
            audit(&tx, Some(found.user.id), "login.ok", address).await?;
            Ok(found.user)
        }
        other => {
            stored::failures::expire(&*tx, now - throttle::WINDOW_MS).await?;
            let detail = format!("{} from {address}", username.trim());
            audit(&tx, other.map(|r| r.user.id), "login.failed", &detail).await?;
            Err(AccountError::WrongCredentials)
        }
    };
    tx.commit().await?;
    result
}

/// Counts a sign-in that is not by password (single sign-on's answer coming
/// back) before any of it is checked, under the same limits per address as
/// passwords: a flood of forged answers is refused like a flood of guesses.
pub async fn count_sign_in(db: &Db, kind: &str, address: &str) -> Result<(), AccountError> {
    let mut tx = db.begin_write().await?;
    let key = format!("{kind}:{address}");
    throttle::count_attempt(&mut tx, &key, &format!("addr:{address}"), now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// A counted sign-in succeeded: it takes its count back.
pub async fn forgive_sign_in(db: &Db, kind: &str, address: &str) -> Result<(), AccountError> {
    let mut tx = db.begin_write().await?;
    let key = format!("{kind}:{address}");
    throttle::forgive(&mut tx, &key, &format!("addr:{address}"), now_ms()).await?;
    tx.commit().await?;
    Ok(())
}
