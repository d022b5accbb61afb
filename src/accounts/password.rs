//! Password hashing: argon2id, tuned to roughly 50 ms on a small server, so a
//! stolen database is slow to attack and a sign-in is still quick.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

pub const MIN_LEN: usize = 10;
pub const MAX_LEN: usize = 1024;

fn hasher() -> Argon2<'static> {
    // 19 MiB, 4 passes, 1 lane: above OWASP's minimum; ~51 ms here in release
    // (cargo bench --bench password).
    let params = Params::new(19 * 1024, 4, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the operating system's random source failed");
    let salt = SaltString::encode_b64(&salt)?;
    Ok(hasher()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Constant-time comparison inside argon2; a malformed stored hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|h| hasher().verify_password(password.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

/// A hash to check against when the account does not exist, so a wrong username
/// takes as long as a wrong password and reveals nothing.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash("quire-dummy-password").unwrap_or_default())
}

pub fn check_new(password: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < MIN_LEN {
        return Err(format!(
            "The password is {chars} characters long; use at least {MIN_LEN}."
        ));
    }
    if password.len() > MAX_LEN {
        return Err(format!("The password is longer than {MAX_LEN} bytes."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_differ_by_salt() {
        let a = hash("correct horse battery").unwrap();
        let b = hash("correct horse battery").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("$argon2id$"));
        assert!(verify("correct horse battery", &a));
        assert!(!verify("correct horse batterY", &a));
        assert!(!verify("anything", "not a hash"));
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(check_new("short").is_err());
        assert!(check_new("long enough pass").is_ok());
    }
}
