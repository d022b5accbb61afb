//! A person's feed of recent changes (Atom), for feed readers: opened by a
//! token of its own (no session, no password), it shows what its person may
//! read at the moment it is fetched, and stops when the token is replaced or
//! revoked, or the account is disabled.

use sha2::{Digest, Sha256};

use super::recent::{Line, Scope, gather};
use crate::db::Db;
use crate::db::notices::feeds as stored;
use crate::documents::DocError;
use crate::documents::access::Actor;

/// Lines a feed holds at most.
const MOST: i64 = 200;

fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Makes the person a new feed token (the old one stops working); the token,
/// shown once.
pub async fn make_token(db: &Db, actor: Actor<'_>) -> Result<String, DocError> {
    let token = crate::random::random_token();
    let tx = db.begin_write().await?;
    stored::set_token(&*tx, actor.user_id, Some(&hash(&token))).await?;
    tx.commit().await?;
    Ok(token)
}

pub async fn revoke(db: &Db, actor: Actor<'_>) -> Result<(), DocError> {
    let tx = db.begin_write().await?;
    stored::set_token(&*tx, actor.user_id, None).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn has_token(db: &Db, actor: Actor<'_>) -> Result<bool, DocError> {
    Ok(stored::has_token(&db.read, actor.user_id).await?)
}

/// A feed as its reader may see it now.
pub struct Feed {
    pub reader: String,
    pub lines: Vec<Line>,
}

/// The feed a token opens, in `scope`; `None` for a token that opens none.
pub async fn feed(db: &Db, token: &str, scope: &Scope) -> Result<Option<Feed>, DocError> {
    if !crate::random::looks_like_token(token) {
        return Ok(None);
    }
    let Some((user, reader)) = stored::reader(&db.read, &hash(token)).await? else {
        return Ok(None);
    };
    let rows = crate::db::notices::recent::list(&db.read, user, scope, MOST).await?;
    Ok(Some(Feed {
        reader,
        lines: gather(rows, None),
    }))
}
