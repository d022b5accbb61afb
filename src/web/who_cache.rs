//! Who is asking, kept: the live sessions and API tokens requests came with,
//! each as its look-up found it. Sessions are filed under the database's
//! sessions counter and tokens under its accounts counter (`db::changes`):
//! every commit moves both except those that change documents' content only
//! (saves, new documents, search indexing), and the notifier's, which moves
//! the sessions counter only (a session's look-up counts its unread notices).
//! So a sign-out, a revoked token, a disabled account or a change of groups
//! empties it before the writer's caller is answered, while a busy hour of
//! saves leaves it be. A session or token kept here is answered from memory
//! only while its look-up would write nothing (`accounts::live_without_write`,
//! `accounts::tokens::used_without_write`): the writes that note it was seen
//! still happen, and each one empties this.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::accounts::{self, Live, User, tokens::Holder};

/// Sessions and tokens kept at most, each; past this they are all let go.
const MOST: usize = 50_000;

#[derive(Default)]
pub struct WhoCache {
    /// Sessions by their token's hash.
    sessions: Kept<Live>,
    /// API tokens' holders by the token's hash.
    tokens: Kept<Holder>,
    /// Look-ups answered from memory, and those that went to the database.
    hits: AtomicU64,
    misses: AtomicU64,
}

/// Values read under one value of a counter, by key.
struct Kept<V>(Mutex<(u64, HashMap<Vec<u8>, V>)>);

impl<V> Default for Kept<V> {
    fn default() -> Self {
        Self(Mutex::new((0, HashMap::new())))
    }
}

impl<V: Clone> Kept<V> {
    /// The value of `key`, if kept under `epoch` (the counter now).
    fn get(&self, epoch: u64, key: &[u8]) -> Option<V> {
        let mut kept = self.0.lock().ok()?;
        if kept.0 != epoch {
            *kept = (epoch, HashMap::new());
        }
        kept.1.get(key).cloned()
    }

    /// Keeps a value read after `read_at` was the counter, if it still is
    /// (`now` is the counter now).
    fn keep(&self, (read_at, now): (u64, u64), key: Vec<u8>, value: &V) {
        let Ok(mut kept) = self.0.lock() else {
            return;
        };
        if kept.0 != now {
            *kept = (now, HashMap::new());
        }
        if read_at != now {
            return;
        }
        if kept.1.len() >= MOST {
            kept.1.clear();
        }
        kept.1.insert(key, value.clone());
    }
}

impl WhoCache {
    /// Counts a look-up that was (`Some`) or was not answered from memory.
    pub fn counted<T>(&self, found: Option<T>) -> Option<T> {
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Look-ups answered from memory and from the database so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    /// The session `key` as last read, if kept under `epoch`.
    pub fn session(&self, epoch: u64, key: &[u8]) -> Option<Live> {
        self.sessions.get(epoch, key)
    }

    /// Keeps a session read while the sessions counter was `read_at`.
    pub fn keep_session(&self, epochs: (u64, u64), key: Vec<u8>, live: &Live) {
        self.sessions.keep(epochs, key, live);
    }

    /// The user of the API token `key` at `now` (ms), if kept under `epoch`
    /// and its use needs no writing down.
    pub fn token_user(&self, epoch: u64, key: &[u8], now: i64) -> Option<User> {
        let holder = self.tokens.get(epoch, key)?;
        accounts::tokens::used_without_write(holder.last_used_at, now).then_some(holder.user)
    }

    /// Keeps a token's holder read while the accounts counter was `read_at`.
    pub fn keep_token(&self, epochs: (u64, u64), key: Vec<u8>, holder: &Holder) {
        self.tokens.keep(epochs, key, holder);
    }
}
