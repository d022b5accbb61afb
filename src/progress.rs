//! Progress bars for long command-line jobs (import, export, copies): drawn on
//! stderr when asked for, hidden otherwise (a pipe, a test, a server).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps; `what` is the template between the spinner and the
/// bar's counters, e.g. `"importing [{bar:40}] {pos}/{len} files"`.
pub fn bar(total: u64, visible: bool, what: &str) -> anyhow::Result<ProgressBar> {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{spinner}} {what}, {{per_sec}}, eta {{eta}}"))?
            .progress_chars("=> "),
    );
    Ok(bar)
}

/// Indexes for search everything an import or seed queued, with a bar.
pub async fn index_for_search(db: &crate::db::Db, visible: bool) -> anyhow::Result<()> {
    use crate::db::search::queue;
    let queued = queue::queued(db).await?;
    if queued == 0 {
        return Ok(());
    }
    let bar = bar(
        queued as u64,
        visible,
        "indexing for search [{bar:40}] {pos}/{len} documents",
    )?;
    queue::catch_up(db, queue::BULK_BATCH, |done| bar.set_position(done as u64)).await?;
    queue::merge(db, queue::BULK_BATCH).await?;
    bar.finish_and_clear();
    Ok(())
}
