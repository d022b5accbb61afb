//! Who is asking, kept: the live sessions and API tokens requests came with,
//! each as its look-up found it. Sessions are filed under the database's
//! sessions counter and tokens under its accounts counter (`db::changes`):
//! every commit moves both except those that change documents' content only
//! (saves, new documents, drafts, the trash, search indexing), and the
//! notifier's, which moves the sessions counter only (a session's look-up
//! counts its unread notices).
//! So a sign-out, a revoked token, a disabled account or a change of groups
//! empties it before the writer's caller is answered, while a busy hour of
//! saves leaves it be. A session or token kept here is answered from memory
//! only while its look-up would write nothing (`accounts::live_without_write`,
//! `accounts::tokens::used_without_write`): the writes that note it was seen
//! still happen, and each one empties this.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Changes;
use crate::accounts::{self, Live, User, tokens::Holder};

/// Sessions and tokens kept at most, each; past this they are all let go.
const MOST: usize = 50_000;

pub struct WhoCache {
    changes: Changes,
    /// Anything may be kept (the page cache is on).
    on: bool,
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

impl<V: Clone> Kept<V> {
    fn new() -> Self {
        Self(Mutex::new((0, HashMap::new())))
    }

    /// The value of `key`, if kept under `epoch` (the counter now).
    fn get(&self, epoch: u64, key: &[u8]) -> Option<V> {
        let mut kept = self.0.lock().ok()?;
        if kept.0 != epoch {
            *kept = (epoch, HashMap::new());
        }
        kept.1.get(key).cloned()
    }

    /// Keeps a value read while the counter was `read_at`, if it still is
    /// (`now`).
    fn keep(&self, read_at: Option<u64>, now: Option<u64>, key: Option<Vec<u8>>, value: &V) {
        let (Some(read_at), Some(now), Some(key)) = (read_at, now, key) else {
            return;
        };
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
    /// Kept under `changes`' counters; nothing is kept unless `on`.
    pub fn new(changes: Changes, on: bool) -> Self {
        Self {
            changes,
            on,
            sessions: Kept::new(),
            tokens: Kept::new(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The moment a look-up of who a session belongs to starts: read it first.
    pub fn sessions_epoch(&self) -> Option<u64> {
        self.changes.sessions_epoch().filter(|_| self.on)
    }

    /// The moment a look-up of who an API token belongs to starts: read it
    /// first.
    pub fn accounts_epoch(&self) -> Option<u64> {
        self.changes.accounts_epoch().filter(|_| self.on)
    }

    /// The session of `token`, if known live and needing no write at `now`.
    pub fn live(&self, token: &str, now: i64) -> Option<Live> {
        let key = accounts::session_key(token)?;
        let live = self.sessions.get(self.sessions_epoch()?, &key)?;
        accounts::live_without_write(&live, now).then_some(live)
    }

    /// The user of a session token, if its session is known live and needs
    /// no write now.
    pub fn user(&self, token: &str, now: i64) -> Option<User> {
        self.counted(self.live(token, now).map(|live| live.user))
    }

    /// The user of an API token, if known and its use needs no write now.
    pub fn token_user(&self, token: &str, now: i64) -> Option<User> {
        let holder = accounts::tokens::token_key(token)
            .and_then(|key| self.tokens.get(self.accounts_epoch()?, &key));
        let user = holder.and_then(|h| {
            accounts::tokens::used_without_write(h.last_used_at, now).then_some(h.user)
        });
        self.counted(user)
    }

    /// Keeps a session read after `read_at` (`sessions_epoch`).
    pub fn keep_session(&self, read_at: Option<u64>, token: &str, live: &Live) {
        let key = accounts::session_key(token);
        self.sessions
            .keep(read_at, self.sessions_epoch(), key, live);
    }

    /// Keeps an API token's holder read after `read_at` (`accounts_epoch`).
    pub fn keep_token(&self, read_at: Option<u64>, token: &str, holder: &Holder) {
        let key = accounts::tokens::token_key(token);
        self.tokens
            .keep(read_at, self.accounts_epoch(), key, holder);
    }

    /// Counts a look-up that was (`Some`) or was not answered from memory.
    fn counted<T>(&self, found: Option<T>) -> Option<T> {
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
}
