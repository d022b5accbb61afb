//! The time quire writes down: milliseconds since 1970, never repeating.

/// Milliseconds since 1970, strictly increasing within this process, so two
/// documents made in the same millisecond still list newest first.
pub fn now_ms() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static LAST: AtomicI64 = AtomicI64::new(0);
    let wall = chrono::Utc::now().timestamp_millis();
    let prev = LAST
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
            Some(wall.max(last + 1))
        })
        .unwrap_or(wall);
    wall.max(prev + 1)
}
