//! After an upgrade that renders pages differently (`RENDER_VERSION`), every
//! page is redone in the background, a few at a time, so that what a page
//! records about itself (its links, for others' "Linked from") is current
//! without each document being opened first. A page opened before the pass
//! reaches it is redone then (`fresh_html`).

use std::time::Duration;

use super::RENDER_VERSION;
use super::render::RenderedPage;
use crate::db::Db;
use crate::db::documents::{self as store, rerender};

const BATCH: i64 = 50;

/// Redoes every live page an older renderer made; once per renderer.
pub async fn redo_old_pages(db: Db) {
    match rerender::rendered_with(&db.read).await {
        Ok(Some(v)) if v == RENDER_VERSION => return,
        Ok(_) => {}
        Err(e) => {
            tracing::warn!(error = %e, "could not tell which renderer made the pages");
            return;
        }
    }
    let (mut after, mut redone) = (0, 0u64);
    loop {
        while db.storage_refused().is_some() {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        let batch = match rerender::stale(&db.read, RENDER_VERSION, after, BATCH).await {
            Ok(batch) => batch,
            Err(e) => {
                tracing::warn!(error = %e, "could not read pages to render again");
                return;
            }
        };
        if batch.is_empty() {
            break;
        }
        for (seq, id, version, body) in batch {
            after = seq;
            let page =
                match tokio::task::spawn_blocking(move || RenderedPage::render(&body, Some(&id)))
                    .await
                {
                    Ok(Ok(page)) => page,
                    _ => continue,
                };
            match store::set_rendered(&db.write, seq, version, &page.packed, RENDER_VERSION).await {
                Ok(()) => redone += 1,
                Err(e) => {
                    // A full disk or a read-only file: the next start tries again.
                    tracing::warn!(error = %e, "could not store a page rendered again");
                    return;
                }
            }
        }
        // Requests come first.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    if let Err(e) = rerender::set_rendered_with(&db.write, RENDER_VERSION).await {
        tracing::warn!(error = %e, "could not record the renderer");
        return;
    }
    if redone > 0 {
        tracing::info!(
            pages = redone,
            "pages made by an older renderer were made again"
        );
    }
}
