//! The CSRF token a page's forms carry. Signed in, it is derived from the session
//! (so it changes at every sign-in and is worthless without that session); before
//! signing in, it is the random one in the `quire_csrf` cookie. Templates write it
//! with `{{ crate::web::csrf::token() }}`: it goes only where quire's own
//! templates put it, never into the text of a document.

use sha2::{Digest, Sha256};

/// Characters in a token (hex of 32 bytes).
pub const TOKEN_LEN: usize = 64;

/// The form field that carries the token.
pub const CSRF_FIELD: &str = "csrf";

tokio::task_local! {
    static CURRENT: String;
}

/// The token bound to a session (given the session cookie's value).
pub fn for_session(session_token: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"quire csrf\0")
        .chain_update(session_token.as_bytes())
        .finalize();
    crate::transfer::hex(&digest)
}

/// Runs a request's handling with `token` as the one templates write.
pub async fn scope<F: std::future::Future>(token: String, f: F) -> F::Output {
    CURRENT.scope(token, f).await
}

/// Renders with `token` as the one templates write (the layout, outside the request).
pub fn render_with<T>(token: String, f: impl FnOnce() -> T) -> T {
    CURRENT.sync_scope(token, f)
}

/// The token of the request being answered; empty outside one (a form drawn
/// there is refused when sent, never accepted).
pub fn token() -> String {
    CURRENT.try_with(String::clone).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_session_has_its_own_token() {
        let (a, b) = (for_session("session-a"), for_session("session-b"));
        assert_eq!(a.len(), TOKEN_LEN);
        assert_ne!(a, b);
        assert_eq!(a, for_session("session-a"));
        assert!(crate::random::same_secret(&a, &a.clone()) && !crate::random::same_secret(&a, &b));
    }

    #[test]
    fn templates_get_the_token_only_inside_a_scope() {
        assert_eq!(token(), "");
        assert_eq!(render_with("t0k".into(), token), "t0k");
    }
}
