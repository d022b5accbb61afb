//! The page cache: what a document page view reads (the session's user, and the
//! page as that user sees it), kept in memory so a repeated view asks the
//! database nothing. It is exact: everything in it was read after the database's
//! change counter (`db::changes`) showed the value it is filed under, and the
//! first request that finds the counter moved empties it. Any commit in this
//! process moves the counter before its caller is answered, so a signed-out
//! session, a disabled account, a revoked share or a save counts from the next
//! request; commits by other processes count within `db::changes::POLL` on
//! SQLite and as soon as their notice arrives on PostgreSQL. Bounded by bytes
//! (`QUIRE_PAGE_CACHE_MB`); the oldest pages go first.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::accounts::{self, Live, User};
use crate::db::changes::Changes;
use crate::db::documents::PackedHtml;
use crate::documents::Document;

use super::pages::DocView;

/// Sessions and access levels kept at most; past this they are all let go.
const MOST_SMALL: usize = 50_000;

pub struct PageCache {
    changes: Changes,
    /// Bytes of pages kept at most; 0 keeps nothing.
    cap: usize,
    inner: Mutex<Inner>,
    /// Page views answered from memory, and those that asked the database.
    hits: AtomicU64,
    misses: AtomicU64,
    /// Times a change emptied a cache that held something.
    emptied: AtomicU64,
}

/// What `/metrics` shows of the cache.
pub struct Gauges {
    pub hits: u64,
    pub misses: u64,
    pub emptied: u64,
    pub pages: usize,
    pub bytes: usize,
}

#[derive(Default)]
struct Inner {
    /// The change counter everything here was read under.
    epoch: u64,
    sessions: HashMap<Vec<u8>, Live>,
    /// A document's page as one viewer sees it, by (viewer, document id).
    pages: HashMap<(i64, String), Arc<Page>>,
    /// Pages in the order they came, to let the oldest go.
    order: VecDeque<(i64, String)>,
    bytes: usize,
}

/// A page without its HTML, and the HTML compressed.
struct Page {
    view: DocView,
    html: PackedHtml,
}

impl Page {
    fn weight(&self) -> usize {
        self.html.len() + self.view.title.len() + self.view.id.len() + 256
    }
}

/// A page view answered from the cache.
pub struct Hit {
    pub user: User,
    pub view: DocView,
}

impl PageCache {
    pub fn new(changes: Changes, cap_bytes: usize) -> Self {
        Self {
            changes,
            cap: cap_bytes,
            inner: Mutex::new(Inner::default()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            emptied: AtomicU64::new(0),
        }
    }

    pub fn gauges(&self) -> Gauges {
        let (pages, bytes) = self
            .inner
            .lock()
            .map_or((0, 0), |i| (i.pages.len(), i.bytes));
        Gauges {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            emptied: self.emptied.load(Ordering::Relaxed),
            pages,
            bytes,
        }
    }

    /// The moment a read that may be cached starts: read it first.
    pub fn epoch(&self) -> Option<u64> {
        if self.cap == 0 {
            return None;
        }
        self.changes.epoch()
    }

    /// The cache as of now: emptied if the counter moved since it was filled;
    /// `None` when nothing may be cached.
    fn current(&self) -> Option<std::sync::MutexGuard<'_, Inner>> {
        let epoch = self.epoch()?;
        let mut inner = self.inner.lock().ok()?;
        if inner.epoch != epoch {
            if !(inner.sessions.is_empty() && inner.pages.is_empty()) {
                self.emptied.fetch_add(1, Ordering::Relaxed);
            }
            *inner = Inner {
                epoch,
                ..Inner::default()
            };
        }
        Some(inner)
    }

    /// The user of a session token, if its session is known live and needs no
    /// write now.
    pub fn user(&self, token: &str, now: i64) -> Option<User> {
        let key = accounts::session_key(token)?;
        let inner = self.current()?;
        let live = inner.sessions.get(&key)?;
        accounts::live_without_write(live, now).then(|| live.user.clone())
    }

    /// The page `id` as the session's user sees it, both known.
    pub fn page_view(&self, token: &str, id: &str, now: i64) -> Option<Hit> {
        let hit = self.look_up_page(token, id, now);
        let counter = if hit.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        hit
    }

    fn look_up_page(&self, token: &str, id: &str, now: i64) -> Option<Hit> {
        let key = accounts::session_key(token)?;
        let (user, page) = {
            let inner = self.current()?;
            let live = inner.sessions.get(&key)?;
            if !accounts::live_without_write(live, now) {
                return None;
            }
            let page = inner.pages.get(&(live.user.id, id.to_owned()))?.clone();
            (live.user.clone(), page)
        };
        let html = page.html.unpacked().ok()?;
        Some(Hit {
            user,
            view: DocView {
                html,
                ..page.view.clone()
            },
        })
    }

    /// Keeps a session read after `epoch` was taken.
    pub fn keep_session(&self, epoch: Option<u64>, token: &str, live: &Live) {
        let Some(key) = accounts::session_key(token) else {
            return;
        };
        let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) else {
            return;
        };
        if inner.sessions.len() >= MOST_SMALL {
            inner.sessions.clear();
        }
        inner.sessions.insert(key, live.clone());
    }

    /// Keeps the page of `doc` as `viewer` sees it (`view`), read after `epoch`,
    /// and gives `view` back: its HTML is compressed for keeping, not copied.
    pub fn keep_page(
        &self,
        epoch: Option<u64>,
        viewer: i64,
        doc: &Document,
        mut view: DocView,
    ) -> DocView {
        let html = std::mem::take(&mut view.html);
        self.keep(epoch, viewer, doc, &view, &html);
        view.html = html;
        view
    }

    fn keep(&self, epoch: Option<u64>, viewer: i64, doc: &Document, bare: &DocView, html: &str) {
        if epoch.is_none() || doc.deleted_at.is_some() {
            return;
        }
        // Compressed before the lock is taken: it is the slow part.
        let Ok(html) = PackedHtml::pack(html) else {
            return;
        };
        let page = Arc::new(Page {
            view: bare.clone(),
            html,
        });
        let weight = page.weight();
        if weight > self.cap / 4 {
            return;
        }
        let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) else {
            return;
        };
        let key = (viewer, doc.id.clone());
        if let Some(old) = inner.pages.insert(key.clone(), page) {
            inner.bytes -= old.weight();
        } else {
            inner.order.push_back(key);
        }
        inner.bytes += weight;
        while inner.bytes > self.cap {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.pages.remove(&oldest) {
                inner.bytes -= gone.weight();
            }
        }
    }
}
