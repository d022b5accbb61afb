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
//!
//! Who a session or token belongs to is kept beside the pages, under the
//! counter that saves leave alone (`web::who_cache`).
//!
//! The list page keeps here, under the same rule, what is the same on each of
//! its pages: the viewer's folders and tags and the count of a filtered list.
//!
//! A page is kept as its rendered partial, compressed as stored pages are
//! (zstd): a view costs a decompression and no template, and the bytes go out
//! as they come (no second UTF-8 check). The
//! partial is rendered with a one-off random CSRF token whose places are
//! noted, and each view writes its own session's token there: two sessions of
//! one user share the page, never a token.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::who_cache::WhoCache;
use crate::Changes;
use crate::accounts::User;
use crate::documents::Document;
use crate::pack::{pack_bytes, unpack_bytes};

/// List pages' folders and tags (by viewer) and counts (by viewer and filter)
/// kept at most; past this they are all let go.
const MOST_LISTS: usize = 500;

/// Folders a viewer's kept list may name: a larger tree is read each time, so
/// the lists kept stay within a few MB (500 × 200 × ~60 bytes).
const MOST_FOLDERS: usize = 200;

/// What a list page shows beside its rows: the viewer's folders (each with
/// how many documents it holds), most used tags, the spaces to choose from
/// (id, name), and every space's name (id, name), to name a row's space (only
/// of rows the viewer may read) without a query.
pub type ListPlaces = (
    Vec<(String, i64)>,
    Vec<(String, i64)>,
    Vec<(i64, String)>,
    Vec<(i64, String)>,
);

pub struct PageCache {
    changes: Changes,
    /// Bytes of pages kept at most; 0 keeps nothing.
    cap: usize,
    inner: Mutex<Inner>,
    /// Sessions and API tokens.
    pub who: WhoCache,
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
    /// Sessions' and API tokens' look-ups answered from memory, and not.
    pub who: (u64, u64),
    pub pages: usize,
    pub bytes: usize,
}

#[derive(Default)]
struct Inner {
    /// The change counter everything here was read under.
    epoch: u64,
    /// A document's page as one viewer sees it, by (viewer, document id).
    pages: HashMap<(i64, String), Arc<PackedPage>>,
    /// Pages in the order they came, to let the oldest go.
    order: VecDeque<(i64, String)>,
    bytes: usize,
    /// A list page's folders and tags, by viewer.
    /// By viewer and the space the list is narrowed to (empty: none).
    places: HashMap<(i64, String), Arc<ListPlaces>>,
    /// How many documents a list finds, by viewer and the list's filters.
    counts: HashMap<(i64, String), i64>,
    /// The spaces a viewer may choose to search in (id, name), by viewer.
    spaces: HashMap<i64, Arc<Vec<(i64, String)>>>,
    /// Whether any comment is held (any reader's; it only spares a search
    /// looking in none).
    comments: Option<bool>,
}

/// A rendered partial, compressed, and where its CSRF token goes.
struct PackedPage {
    title: String,
    packed: Vec<u8>,
    /// Bytes of the partial.
    len: usize,
    /// Offsets of the token in the partial.
    csrf_at: Vec<usize>,
}

impl PackedPage {
    fn weight(&self, id: &str) -> usize {
        self.packed.len() + self.title.len() + id.len() + 8 * self.csrf_at.len() + 160
    }

    /// The partial with `csrf` in its token's places.
    fn unpacked(&self, csrf: &str) -> Option<Vec<u8>> {
        let mut html = unpack_bytes(&self.packed, self.len).ok()?;
        if html.len() != self.len || csrf.len() != super::csrf::TOKEN_LEN {
            return None;
        }
        for &at in &self.csrf_at {
            html.get_mut(at..at + csrf.len())?
                .copy_from_slice(csrf.as_bytes());
        }
        Some(html)
    }
}

/// A page answered from the cache: its title and rendered partial.
pub struct CachedPage {
    pub title: String,
    pub html: Vec<u8>,
}

impl PageCache {
    pub fn new(changes: Changes, cap_bytes: usize) -> Self {
        Self {
            changes: changes.clone(),
            cap: cap_bytes,
            inner: Mutex::new(Inner::default()),
            who: WhoCache::new(changes, cap_bytes > 0),
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
            who: self.who.counts(),
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
            let held = !(inner.pages.is_empty()
                && inner.places.is_empty()
                && inner.spaces.is_empty()
                && inner.comments.is_none());
            if held {
                self.emptied.fetch_add(1, Ordering::Relaxed);
            }
            *inner = Inner {
                epoch,
                ..Inner::default()
            };
        }
        Some(inner)
    }

    /// The session's user and the page `id` as that user sees it, both known,
    /// with the session's CSRF token `csrf` in its forms.
    pub fn page_view(
        &self,
        token: &str,
        id: &str,
        now: i64,
        csrf: &str,
    ) -> Option<(User, CachedPage)> {
        let hit = self.look_up_page(token, id, now, csrf);
        let counter = if hit.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        hit
    }

    fn look_up_page(
        &self,
        token: &str,
        id: &str,
        now: i64,
        csrf: &str,
    ) -> Option<(User, CachedPage)> {
        let user = self.who.live(token, now)?.user;
        let page = self
            .current()?
            .pages
            .get(&(user.id, id.to_owned()))?
            .clone();
        let html = page.unpacked(csrf)?;
        let title = page.title.clone();
        Some((user, CachedPage { title, html }))
    }

    /// What `viewer`'s list pages in `space` (empty: all) show beside their
    /// rows, and how many documents the list narrowed by `filters` finds, each
    /// if known: one look.
    pub fn list(
        &self,
        viewer: i64,
        space: &str,
        filters: &str,
    ) -> (Option<Arc<ListPlaces>>, Option<i64>) {
        let Some(inner) = self.current() else {
            return (None, None);
        };
        (
            inner.places.get(&(viewer, space.to_owned())).cloned(),
            inner.counts.get(&(viewer, filters.to_owned())).copied(),
        )
    }

    /// Keeps what `viewer`'s list pages show beside their rows, and the count
    /// of the list narrowed by `filters`, both read after `epoch`.
    pub fn keep_list(
        &self,
        epoch: Option<u64>,
        (viewer, space): (i64, &str),
        places: &Arc<ListPlaces>,
        (filters, count): (&str, i64),
    ) {
        if places.0.len() > MOST_FOLDERS {
            return;
        }
        let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) else {
            return;
        };
        if inner.places.len() >= MOST_LISTS || inner.counts.len() >= MOST_LISTS {
            inner.places.clear();
            inner.counts.clear();
        }
        inner
            .places
            .insert((viewer, space.to_owned()), places.clone());
        inner.counts.insert((viewer, filters.to_owned()), count);
    }

    /// The spaces `viewer` may choose to search in, if known.
    pub fn space_names(&self, viewer: i64) -> Option<Arc<Vec<(i64, String)>>> {
        self.current()?.spaces.get(&viewer).cloned()
    }

    /// Keeps the spaces `viewer` may choose from, read after `epoch`.
    pub fn keep_space_names(
        &self,
        epoch: Option<u64>,
        viewer: i64,
        names: &Arc<Vec<(i64, String)>>,
    ) {
        let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) else {
            return;
        };
        if inner.spaces.len() >= MOST_LISTS {
            inner.spaces.clear();
        }
        inner.spaces.insert(viewer, names.clone());
    }

    /// Whether any comment is held, if known; `None` also when nothing may
    /// be kept.
    pub fn any_comments(&self) -> Option<bool> {
        self.current()?.comments
    }

    /// Keeps whether any comment is held, read after `epoch`.
    pub fn keep_any_comments(&self, epoch: Option<u64>, any: bool) {
        if let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) {
            inner.comments = Some(any);
        }
    }

    /// Keeps the page of `doc` as `viewer` sees it, read after `epoch`: its
    /// `title` and rendered partial `html`, in which `csrf` stands wherever
    /// the session's CSRF token goes.
    pub fn keep_page(
        &self,
        epoch: Option<u64>,
        viewer: i64,
        doc: &Document,
        title: &str,
        html: &str,
        csrf: &str,
    ) {
        if epoch.is_none() || doc.deleted_at.is_some() || csrf.len() != super::csrf::TOKEN_LEN {
            return;
        }
        // Compressed before the lock is taken: it is the slow part.
        let Ok(packed) = pack_bytes(html.as_bytes()) else {
            return;
        };
        let page = Arc::new(PackedPage {
            title: title.to_owned(),
            packed,
            len: html.len(),
            csrf_at: html.match_indices(csrf).map(|(at, _)| at).collect(),
        });
        let weight = page.weight(&doc.id);
        if weight > self.cap / 4 {
            return;
        }
        let Some(mut inner) = self.current().filter(|i| Some(i.epoch) == epoch) else {
            return;
        };
        let key = (viewer, doc.id.clone());
        if let Some(old) = inner.pages.insert(key.clone(), page) {
            inner.bytes -= old.weight(&key.1);
        } else {
            inner.order.push_back(key);
        }
        inner.bytes += weight;
        while inner.bytes > self.cap {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.pages.remove(&oldest) {
                inner.bytes -= gone.weight(&oldest.1);
            }
        }
    }
}
