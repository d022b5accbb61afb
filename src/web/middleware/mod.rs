//! Middleware: what runs around the handlers. `startup::serve` wraps every
//! request in these, outermost first: `drain` (counts it in flight for a
//! graceful stop), `observe` (request id, span, log line, metrics),
//! `limits::body_deadline`, `security_headers`, `layout` (a partial into its
//! page), `db_gate` (503 while the database cannot be used) and `proxy_sign_in`
//! (single sign-on by a trusted proxy's header). The routes
//! table (`crate::app`) puts `auth` (CSRF or bearer token) and `session` (who is
//! signed in) in front of the routes they guard.

pub mod auth;
pub mod db_gate;
pub mod drain;
pub mod layout;
pub mod limits;
pub mod observe;
pub mod proxy_sign_in;
pub mod security_headers;
pub mod session;
