//! Sign-in throttling. Every attempt is counted as a failure before its password is
//! checked, inside the write transaction, so a flood of simultaneous attempts cannot
//! slip past the limit; a correct password takes its count back. Password checks
//! run a few at a time (one per core), so a flood cannot exhaust memory either.

use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::AccountError;
use crate::db::WriteTx;
use crate::db::accounts::failures;

pub(super) const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failures an account takes without delay; after them each attempt waits.
pub(super) const FREE_PER_ACCOUNT: i64 = 10;
/// The longest wait between attempts on one account: someone guessing for it
/// slows its owner down by at most this, never locks them out.
const MAX_BACKOFF_MS: i64 = 60 * 1000;
/// Failures from one address in the window before it is refused outright.
pub(super) const MAX_PER_ADDRESS: i64 = 50;
/// How long a sign-in waits for a free hashing slot before it is told to retry.
const HASH_WAIT: Duration = Duration::from_secs(5);

/// How long the account must rest after `failures` failures, the last at `last`.
pub fn backoff_until(failures: i64, last: i64) -> Option<i64> {
    let over = failures - FREE_PER_ACCOUNT;
    (over >= 0).then(|| last + (1000_i64 << over.min(16)).min(MAX_BACKOFF_MS))
}

/// Counts this attempt (for the account and the address) before any hashing, or
/// refuses it while the account rests or the address is over its limit.
pub(super) async fn count_attempt(
    tx: &mut WriteTx,
    account_key: &str,
    address_key: &str,
    now: i64,
) -> Result<(), AccountError> {
    let (by_account, last, by_address) =
        failures::counts(&**tx, account_key, address_key, now - WINDOW_MS).await?;
    if by_address >= MAX_PER_ADDRESS {
        return Err(AccountError::RateLimited {
            seconds: WINDOW_MS / 1000,
        });
    }
    if let Some(until) = backoff_until(by_account, last).filter(|u| *u > now) {
        return Err(AccountError::RateLimited {
            seconds: (until - now + 999) / 1000,
        });
    }
    for key in [account_key, address_key] {
        failures::insert(&**tx, key, now).await?;
    }
    Ok(())
}

/// A correct password: the account starts afresh, and the address gets back the
/// failure this attempt was counted as.
pub(super) async fn forgive(
    tx: &mut WriteTx,
    account_key: &str,
    address_key: &str,
    now: i64,
) -> Result<(), crate::db::Error> {
    failures::forgive(&**tx, account_key, address_key, now).await
}

fn slots() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Semaphore::new(cores)
    })
}

/// Checks a password against a stored hash, at most one check per core at a
/// time (argon2 takes 19 MiB each); `Busy` when no slot frees up soon.
pub(super) async fn verify(password: String, stored: String) -> Result<bool, AccountError> {
    let permit = tokio::time::timeout(HASH_WAIT, slots().acquire())
        .await
        .map_err(|_| AccountError::Busy)?
        .map_err(|_| AccountError::Busy)?;
    let matches = tokio::task::spawn_blocking(move || super::password::verify(&password, &stored))
        .await
        .unwrap_or(false);
    drop(permit);
    Ok(matches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_slows_down_after_its_free_failures_and_never_waits_over_a_minute() {
        assert_eq!(backoff_until(FREE_PER_ACCOUNT - 1, 0), None);
        assert_eq!(backoff_until(FREE_PER_ACCOUNT, 0), Some(1000));
        assert_eq!(backoff_until(FREE_PER_ACCOUNT + 2, 0), Some(4000));
        assert_eq!(
            backoff_until(FREE_PER_ACCOUNT + 40, 5),
            Some(5 + MAX_BACKOFF_MS)
        );
    }
}
